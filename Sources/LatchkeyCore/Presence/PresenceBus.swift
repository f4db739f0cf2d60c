import Synchronization

/// The one boundary presence changes cross on their way to the streams that watch them
/// (ARCHITECTURE, "Concurrency"): publish a change, subscribe by user id. In-process for
/// one instance; PostgreSQL `LISTEN/NOTIFY` can carry the same calls across instances
/// without a handler changing.
public protocol PresenceBus: Sendable {
    func publish(_ presence: Presence)
    /// Hands `presence` to this process's watchers only: for a change every instance
    /// learns by itself (an account event's offline).
    func deliverLocally(_ presence: Presence)
    /// `deliver` runs for every change of any of `userIDs` (on the publisher's thread)
    /// until the returned subscription is cancelled.
    func subscribe(to userIDs: [String], _ deliver: @escaping @Sendable (Presence) -> Void) -> PresenceSubscription
}

/// A watcher's hold on the bus; `cancel` ends it (at most once matters).
public final class PresenceSubscription: Sendable {
    private let cancellation: Mutex<(@Sendable () -> Void)?>

    init(cancel: @escaping @Sendable () -> Void) {
        cancellation = Mutex(cancel)
    }

    public func cancel() {
        let cancel = cancellation.withLock { current -> (@Sendable () -> Void)? in
            defer { current = nil }
            return current
        }
        cancel?()
    }
}

/// The bus inside one process. A change costs a lookup of the watched user and a call
/// per watcher of that user: never a scan of every subscription.
public final class InProcessPresenceBus: PresenceBus {
    private struct State {
        var nextID: UInt64 = 0
        var watchers: [String: [UInt64: @Sendable (Presence) -> Void]] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    public func publish(_ presence: Presence) {
        let deliveries = state.withLock { state in state.watchers[presence.userID].map { Array($0.values) } ?? [] }
        for deliver in deliveries { deliver(presence) }  // outside the lock: a watcher may cancel
    }

    public func deliverLocally(_ presence: Presence) {
        publish(presence)
    }

    public func subscribe(to userIDs: [String], _ deliver: @escaping @Sendable (Presence) -> Void) -> PresenceSubscription {
        let ids = Array(Set(userIDs))
        let id = state.withLock { state in
            state.nextID += 1
            for userID in ids { state.watchers[userID, default: [:]][state.nextID] = deliver }
            return state.nextID
        }
        return PresenceSubscription { [weak self] in
            self?.state.withLock { state in
                for userID in ids {
                    state.watchers[userID]?[id] = nil
                    if state.watchers[userID]?.isEmpty == true { state.watchers[userID] = nil }
                }
            }
        }
    }

    /// Users with at least one watcher (for tests and metrics).
    public var watchedUsers: Int { state.withLock { $0.watchers.count } }
}
