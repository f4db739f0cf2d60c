import Synchronization
import Threads

/// Delivers the outbox on a thread of its own: never on an event loop, and never inside a
/// database transaction (messages are read, delivered, then their outcome is written).
/// A message whose delivery throws is retried with exponential back-off; one whose
/// success is recorded is never sent again. A crash between a delivery and its record
/// sends that one message again at the next start (mail is at-least-once by nature).
/// A message refused for good (`UndeliverableMail`), or still failing once older than
/// `maximumAge`, is given up: its links would no longer work. Senders of several instances
/// over one database never take the same message: each claims its batch (for `lease`
/// seconds, past which a sender that died leaves it to the others). Bodies are opened with
/// the `OutboxKey` only here, just before delivery; a body that does not open (sealed
/// under another key: an instance whose data directory is not the shared one) is retried
/// like a failed delivery, so an instance that holds the right key can still send it.
public final class OutboxSender: Sendable {
    private let database: Database
    private let transport: any MailTransport
    private let key: OutboxKey
    private let thread = PollingThread()
    private let failedDeliveries = Atomic<Int>(0)
    /// Messages taken per pass, so one pass stays short.
    private static let batch = 64
    /// Longer than any mailed link lives (verification: 24 hours).
    static let maximumAge: Int64 = 48 * 3600
    /// Longer than a batch takes to deliver, however slow the mail server.
    static let lease: Int64 = 600

    public init(database: Database, transport: any MailTransport, key: OutboxKey, pollInterval: Double = 1) {
        self.database = database
        self.transport = transport
        self.key = key
        // A full batch means more may be due: go on at once rather than at the next poll.
        thread.start(named: "mail-outbox", pollInterval: pollInterval) { [self] in deliverDue() == Self.batch }
    }

    /// Delivery attempts that failed (to be retried or given up), since start.
    public var deliveryFailures: Int { failedDeliveries.load(ordering: .relaxed) }

    /// Something was queued: look now rather than at the next poll.
    public func notify() {
        thread.notify()
    }

    /// Finishes the pass under way and ends the thread.
    public func stop() {
        thread.stop()
    }

    /// Delivers what is due, at most a batch; returns how many messages it took.
    private func deliverDue() -> Int {
        guard (try? database.read({ db in try OutboxStore.anyDue(now: UnixTime.now(), on: db) })) == true else { return 0 }
        let due = database.writeAndWait { db -> [OutboxStore.Claimed] in
            let now = UnixTime.now()
            return try OutboxStore.claimDue(now: now, leaseEnd: now + Self.lease, limit: Self.batch, on: db)
        } ?? []
        guard !due.isEmpty else { return 0 }
        for entry in due where !thread.isStopping {
            let outcome: Outcome
            do {
                try transport.deliver(try message(of: entry.body), id: entry.id)
                outcome = .sent
            } catch let error as UndeliverableMail {
                outcome = .abandoned(error.description)
            } catch {
                outcome = UnixTime.now() - entry.createdAt > Self.maximumAge ? .abandoned("\(error), for \(Self.maximumAge / 3600) hours") : .failed("\(error)")
            }
            if case .sent = outcome {} else { failedDeliveries.add(1, ordering: .relaxed) }
            record(entry.id, attempts: entry.attempts, outcome: outcome)
        }
        transport.finishBatch()
        return due.count
    }

    private func message(of body: OutboxStore.QueuedBody) throws -> MailMessage {
        switch body {
        case .sealed(let sealed):
            guard let message = sealed.open(with: key) else { throw UnopenedMail() }
            return message
        case .fromBeforeSealing(let message): return message
        case .missing: throw UndeliverableMail("the message has no body")
        }
    }

    private struct UnopenedMail: Error, CustomStringConvertible {
        var description: String { "its body does not open with this instance's outbox-key (sealed under another key)" }
    }

    private enum Outcome {
        case sent
        case failed(String)
        case abandoned(String)
    }

    private func record(_ id: Int64, attempts: Int, outcome: Outcome) {
        _ = database.writeAndWait { db in
            let now = UnixTime.now()
            switch outcome {
            case .sent: try OutboxStore.markSent(id, now: now, on: db)
            case .failed(let error): try OutboxStore.markFailed(id, retryAt: now + RetryBackoff.delay(afterAttempts: attempts), error: error, on: db)
            case .abandoned(let error): try OutboxStore.markAbandoned(id, now: now, error: error, on: db)
            }
        }
    }
}
