/// A bound, listening socket that an `HTTPServer` will accept from.
public struct Listener: Sendable {
    let fd: Int32
    /// The port actually bound: the one asked for, or a free one for port 0.
    public let port: Int

    public init(host: String, port: Int) throws(ListenError) {
        (fd, self.port) = try Socket.listen(host: host, port: port)
    }
}
