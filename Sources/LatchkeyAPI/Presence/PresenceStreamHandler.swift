import HTTPServer
import LatchkeyCore

/// `GET /v1/presence/stream?userIds=a,b,…`: server-sent events, one `presence` event per
/// known id first, then one per change, and a `: keepalive` comment every 15 s. While the
/// stream is open its caller is online; it ends when the client goes, when its session
/// ends, or when the server stops.
enum PresenceStreamHandler {
    static let headers = [
        HTTPField(name: "Content-Type", value: "text/event-stream; charset=utf-8"),
        HTTPField(name: "Cache-Control", value: "no-store"),
        // Proxies such as nginx would otherwise hold events back to fill their buffers.
        HTTPField(name: "X-Accel-Buffering", value: "no"),
    ]

    static func open(_ request: Request, _ caller: Authenticated, _ reader: StoreReader, _ context: APIContext) throws -> Response {
        let ids = try PresenceHandlers.userIDs(of: request)
        // A HEAD learns the headers; it must not hold its caller online with no body.
        if request.method == "HEAD" { return Response(status: 200, headers: headers) }
        let stream = ResponseStream(highWater: EventStreamWatcher.highWater)
        let streams = context.core.presence.streams
        guard let id = try context.core.presence.openStream(EventStreamWatcher(stream), for: caller, watching: ids, reader: reader) else {
            throw APIProblem.serviceBusy  // the server is stopping
        }
        stream.onClose { streams.closed(id) }
        return Response(status: 200, headers: headers, stream: stream)
    }
}

/// Writes what a presence stream receives as server-sent events.
final class EventStreamWatcher: PresenceWatcher {
    /// A watcher this far behind (its socket full, events still coming) is dropped, so a
    /// slow client never grows the server's memory or delays anyone else.
    static let highWater = 64 * 1024

    let stream: ResponseStream

    init(_ stream: ResponseStream) {
        self.stream = stream
    }

    func deliver(_ presence: Presence) {
        stream.write(Self.event(presence))
    }

    func keepAlive() {
        stream.write(Self.keepAliveComment)
    }

    func end() {
        stream.finish()
    }

    static let keepAliveComment = Array(": keepalive\n\n".utf8)

    /// `event: presence`, `data: ` and the Presence JSON on one line, a blank line.
    static func event(_ presence: Presence) -> [UInt8] {
        Array("event: presence\ndata: ".utf8) + PresenceHandlers.presence(presence) + Array("\n\n".utf8)
    }
}
