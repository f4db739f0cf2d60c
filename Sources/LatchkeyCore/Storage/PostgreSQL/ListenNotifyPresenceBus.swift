import Dispatch
import Glibc
internal import PostgreSQL
import Synchronization
import Threads

/// The presence bus across instances over PostgreSQL: a change published here reaches
/// this instance's watchers at once (through the in-process bus) and every other
/// instance's through `NOTIFY latchkey_presence`, which each instance's listener thread
/// receives and hands to its own watchers. Publishing never waits on the network: a sender
/// thread takes the changes in order. A payload is `<origin> <status> <lastSeen> <userID>`
/// (the user id last: an imported one may hold anything); an instance skips what it sent
/// itself.
///
/// The listener also hears `AccountEventStore.channel`, the NOTIFY an account event sends
/// when its transaction commits, and hands it to the instance's `AccountEventBus`, which
/// it also tells when its connection breaks and when it listens again (events sent in
/// between are lost, so what caches accounts drops them).
///
/// A listening connection only receives, so a database that is gone, or a link that
/// swallows what crosses it, would look like a quiet channel for ever, and this instance
/// would go on answering from copies of sessions revoked elsewhere. The listener pings
/// the database once a second when nothing else has come (`pingInterval`); a ping not
/// answered within `pingTimeoutMilliseconds` counts as a broken connection: the feed is lost (the
/// caches drop what they hold) until a new connection listens.
///
/// While the database is unreachable, changes wait (at most `maxWaiting`, the oldest
/// dropped first) and the listener reconnects every second; changes sent meanwhile by
/// other instances are not replayed, so a watcher may miss one (its next change, or a
/// reconnecting client's snapshot, puts it right).
final class ListenNotifyPresenceBus: PresenceBus {
    static let channel = "latchkey_presence"
    static let maxWaiting = 10_000
    static let pingInterval: Duration = .seconds(1)
    static let pingTimeoutMilliseconds = 3000

    private let local = InProcessPresenceBus()
    private let origin = RandomID.make()
    private let connect: @Sendable () throws -> PostgreSQL.Connection
    private let waiting = Mutex<[Presence]>([])
    private let wake = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    /// Signalled by each of the two threads as it ends.
    private let ended = DispatchSemaphore(value: 0)
    private let accountEvents = Mutex<AccountEventBus?>(nil)

    /// `connect` opens a connection of the bus's own (one for sending, one for listening).
    /// The first listening connection is opened here, so an instance hears every change
    /// made anywhere from the moment it has started, and an unreachable database fails
    /// the start.
    init(connect: @escaping @Sendable () throws -> PostgreSQL.Connection) throws {
        self.connect = connect
        let listening = try connect()
        try Self.listen(on: listening)
        DedicatedThread.start(named: "presence-notify") { [self] in send() }
        DedicatedThread.start(named: "presence-listen") { [self] in listen(from: listening) }
    }

    func publish(_ presence: Presence) {
        local.publish(presence)
        waiting.withLock { waiting in
            if waiting.count >= Self.maxWaiting { waiting.removeFirst() }
            waiting.append(presence)
        }
        wake.signal()
    }

    func deliverLocally(_ presence: Presence) {
        local.publish(presence)
    }

    /// From now on, account events heard are handed to `bus` (`Database.hearAccountEvents`).
    func forwardAccountEvents(to bus: AccountEventBus) {
        accountEvents.withLock { $0 = bus }
    }

    private static func listen(on connection: PostgreSQL.Connection) throws {
        try connection.listen(channel)
        try connection.listen(AccountEventStore.channel)
    }

    /// `<origin> <EndedAccess payload>`, handed over in order: the listener waits for it.
    private func forwardAccountEvent(_ payload: String) {
        guard let bus = accountEvents.withLock({ $0 }) else { return }
        let fields = payload.split(separator: " ", maxSplits: 1)
        guard fields.count == 2 else { return }
        bus.hear(origin: fields[0], payload: fields[1])
    }

    func subscribe(to userIDs: [String], _ deliver: @escaping @Sendable (Presence) -> Void) -> PresenceSubscription {
        local.subscribe(to: userIDs, deliver)
    }

    /// Ends both threads (within the listener's one-second wait) and closes their connections.
    func stop() {
        stopping.store(true, ordering: .releasing)
        wake.signal()
        ended.wait()
        ended.wait()
    }

    private var isStopping: Bool { stopping.load(ordering: .acquiring) }

    private func send() {
        var connection: PostgreSQL.Connection?
        // Bounded by stop(): every pass waits for a change or for stop.
        while !isStopping {
            wake.wait()
            let batch = waiting.withLock { waiting -> [Presence] in
                defer { waiting.removeAll() }
                return waiting
            }
            guard !batch.isEmpty else { continue }
            do {
                let open = try connection ?? connect()
                connection = open
                // One transaction: the batch costs one commit, and arrives whole and in order.
                try open.transaction { db in
                    for presence in batch { try db.notify(channel: Self.channel, payload: payload(presence)) }
                }
            } catch {
                connection?.close()
                connection = nil
                waiting.withLock { $0.insert(contentsOf: batch.suffix(max(0, Self.maxWaiting - $0.count)), at: 0) }
                sleep(1)
                wake.signal()
            }
        }
        connection?.close()
        ended.signal()
    }

    private func listen(from listening: PostgreSQL.Connection) {
        var connection: PostgreSQL.Connection? = listening
        var lastHeard = ContinuousClock.now
        // Bounded by stop(): every pass waits at most a second, or a ping's timeout.
        while !isStopping {
            do {
                let open: PostgreSQL.Connection
                if let connection { open = connection } else {
                    open = try connect()
                    do {
                        try Self.listen(on: open)
                    } catch {
                        open.close()  // not yet `connection`: the catch below would not close it
                        throw error
                    }
                    connection = open
                    lastHeard = ContinuousClock.now
                    accountEvents.withLock { $0 }?.feedRestored()
                }
                let notifications = try open.waitForNotifications(timeoutMilliseconds: 1000)
                if !notifications.isEmpty {
                    lastHeard = ContinuousClock.now
                } else if ContinuousClock.now - lastHeard >= Self.pingInterval {
                    try open.ping(timeoutMilliseconds: Self.pingTimeoutMilliseconds)
                    lastHeard = ContinuousClock.now
                }
                for notification in notifications {
                    if notification.channel.utf8.elementsEqual(Self.channel.utf8) {
                        if let presence = presence(from: notification.payload) { local.publish(presence) }
                    } else if notification.channel.utf8.elementsEqual(AccountEventStore.channel.utf8) {
                        forwardAccountEvent(notification.payload)
                    }
                }
            } catch {
                if connection != nil { accountEvents.withLock { $0 }?.feedLost() }
                connection?.close()
                connection = nil
                sleep(1)
            }
        }
        connection?.close()
        ended.signal()
    }

    private func payload(_ presence: Presence) -> String {
        "\(origin) \(presence.status.rawValue) \(presence.lastSeen) \(presence.userID)"
    }

    /// Nil for this instance's own changes (delivered already) and anything malformed.
    private func presence(from payload: String) -> Presence? {
        let fields = payload.split(separator: " ", maxSplits: 3)
        guard fields.count == 4, fields[0] != origin, let status = PresenceStatus(rawValue: String(fields[1])), let lastSeen = Int64(fields[2])
        else { return nil }
        return Presence(userID: String(fields[3]), status: status, lastSeen: lastSeen)
    }
}
