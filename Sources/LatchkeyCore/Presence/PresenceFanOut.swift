/// How one change reaches all the watchers of its user on this instance: in one call, so
/// an implementation can encode it once and hand it to its connections in batches rather
/// than one at a time (LatchkeyAPI's event streams do). Runs on the publisher's thread.
public protocol PresenceFanOut: Sendable {
    func deliver(_ presence: Presence, to watchers: [any PresenceWatcher])
    /// A sign of life for every open stream at once.
    func keepAlive(_ watchers: [any PresenceWatcher])
}

/// Until the HTTP layer names its own: each watcher in turn.
struct EachWatcherInTurn: PresenceFanOut {
    func deliver(_ presence: Presence, to watchers: [any PresenceWatcher]) {
        for watcher in watchers { watcher.deliver(presence) }
    }

    func keepAlive(_ watchers: [any PresenceWatcher]) {
        for watcher in watchers { watcher.keepAlive() }
    }
}
