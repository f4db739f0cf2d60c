import Glibc

/// Everything the engine needs to know before it listens. Defaults follow the
/// engine rules of ARCHITECTURE.md.
public struct ServerConfiguration: Sendable {
    public var host: String
    /// 0 picks a free port; `HTTPServer.port` tells which.
    public var port: Int
    public var eventLoops: Int
    /// Above this many open connections, new ones get 503 and are closed.
    public var maxConnections: Int
    public var headLimits: HeadLimits
    /// From the first byte of a request head to its end (408).
    public var headerTimeout: Duration
    /// Between two bytes of a request body (408).
    public var bodyTimeout: Duration
    /// A keep-alive connection with no request in progress is closed after this.
    public var idleTimeout: Duration
    /// A peer that reads none of a pending response for this long is dropped.
    public var writeTimeout: Duration
    /// On shutdown, how long in-flight requests get to finish.
    public var shutdownGracePeriod: Duration

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        eventLoops: Int = ServerConfiguration.coreCount,
        maxConnections: Int = 10_000,
        headLimits: HeadLimits = HeadLimits(),
        headerTimeout: Duration = .seconds(10),
        bodyTimeout: Duration = .seconds(30),
        idleTimeout: Duration = .seconds(60),
        writeTimeout: Duration = .seconds(30),
        shutdownGracePeriod: Duration = .seconds(10)
    ) {
        self.host = host
        self.port = port
        self.eventLoops = eventLoops
        self.maxConnections = maxConnections
        self.headLimits = headLimits
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.writeTimeout = writeTimeout
        self.shutdownGracePeriod = shutdownGracePeriod
    }

    public static var coreCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}

extension Duration {
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}
