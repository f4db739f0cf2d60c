import HTTPServer
import LatchkeyCore

/// One change to every event stream watching its user: the event is encoded and framed
/// once, and each event loop gets one job listing its streams, which writes the shared
/// bytes to each socket (`ResponseStream.broadcast`). No lock, allocation or job per
/// watcher: ten thousand watchers of one user cost one encoding and a job per loop.
struct EventStreamFanOut: PresenceFanOut {
    func deliver(_ presence: Presence, to watchers: [any PresenceWatcher]) {
        broadcast(SharedChunk(EventStreamWatcher.event(presence)), to: watchers) { $0.deliver(presence) }
    }

    func keepAlive(_ watchers: [any PresenceWatcher]) {
        broadcast(Self.keepAliveChunk, to: watchers) { $0.keepAlive() }
    }

    static let keepAliveChunk = SharedChunk(EventStreamWatcher.keepAliveComment)

    /// A watcher of another kind (none today) gets the change its own way.
    private func broadcast(_ chunk: SharedChunk, to watchers: [any PresenceWatcher], otherwise: (any PresenceWatcher) -> Void) {
        var streams: [ResponseStream] = []
        streams.reserveCapacity(watchers.count)
        for watcher in watchers {
            if let events = watcher as? EventStreamWatcher { streams.append(events.stream) } else { otherwise(watcher) }
        }
        ResponseStream.broadcast(chunk, to: streams)
    }
}
