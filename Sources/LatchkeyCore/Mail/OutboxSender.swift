import Dispatch
import Synchronization
import Threads

/// Delivers the outbox on a thread of its own: never on an event loop, and never inside a
/// database transaction (messages are read, delivered, then their outcome is written).
/// A message whose delivery throws is retried with exponential back-off; one whose
/// success is recorded is never sent again. A crash between a delivery and its record
/// sends that one message again at the next start (mail is at-least-once by nature).
public final class OutboxSender: Sendable {
    private let database: Database
    private let transport: any MailTransport
    private let wake = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private let stopped = DispatchSemaphore(value: 0)
    /// Messages taken per pass, so one pass stays short.
    private static let batch = 64
    /// The longest wait between two attempts at one message.
    static let maximumBackoff: Int64 = 3600

    public init(database: Database, transport: any MailTransport, pollInterval: Double = 1) {
        self.database = database
        self.transport = transport
        DedicatedThread.start { [self] in
            while !stopping.load(ordering: .acquiring) {
                deliverDue()
                _ = wake.wait(timeout: .now() + pollInterval)
            }
            stopped.signal()
        }
    }

    /// Something was queued: look now rather than at the next poll.
    public func notify() {
        wake.signal()
    }

    /// Finishes the pass under way and ends the thread.
    public func stop() {
        stopping.store(true, ordering: .releasing)
        wake.signal()
        stopped.wait()
    }

    /// The delay before attempt `attempts + 1`: 2, 4, 8 ... seconds, at most an hour.
    static func backoff(afterAttempts attempts: Int) -> Int64 {
        min(maximumBackoff, Int64(1) << min(max(attempts, 0) + 1, 12))
    }

    private func deliverDue() {
        guard let due = try? database.read({ db in try OutboxStore.due(now: UnixTime.now(), limit: Self.batch, on: db) }) else { return }
        for entry in due where !stopping.load(ordering: .acquiring) {
            let outcome: String?
            do {
                try transport.deliver(entry.message, id: entry.id)
                outcome = nil
            } catch {
                outcome = String(describing: error)
            }
            record(entry.id, attempts: entry.attempts, failure: outcome)
        }
    }

    private func record(_ id: Int64, attempts: Int, failure: String?) {
        let done = DispatchSemaphore(value: 0)
        database.submitWrite({ db in
            let now = UnixTime.now()
            if let failure {
                try OutboxStore.markFailed(id, retryAt: now + Self.backoff(afterAttempts: attempts), error: failure, on: db)
            } else {
                try OutboxStore.markSent(id, now: now, on: db)
            }
        }, completion: { _ in done.signal() })
        done.wait()
    }
}
