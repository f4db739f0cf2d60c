/// Where a `.deferred` handler sends its answer, from any thread. The response goes to the
/// connection's event loop and is written in request order; if the client has gone in the
/// meantime, it is dropped.
public struct ResponseSink: Sendable {
    let loop: EventLoop
    let fd: Int32
    let connectionID: UInt64

    public func respond(_ response: Response) {
        loop.post(.response(fd: fd, connectionID: connectionID, response))
    }

    /// Has the loop build the response on its own thread: for a sender (a database
    /// writer) that should hand over the raw result and get back to its own work.
    public func respond(building make: @escaping @Sendable () -> Response) {
        loop.post(.build(fd: fd, connectionID: connectionID, make))
    }
}
