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
    /// Above this many open connections from one address (IPv6: one /64), its new ones
    /// get 503 too.
    public var maxConnectionsPerAddress: Int
    /// Addresses the per-address cap does not apply to (trusted proxies: every client
    /// behind one shares its address).
    public var uncappedAddresses: Set<String>
    public var headLimits: HeadLimits
    /// From the first byte of a request head to its end (408).
    public var headerTimeout: Duration
    /// From the start of a request body, extended by a second for every `bodyMinRate`
    /// bytes received (408).
    public var bodyTimeout: Duration
    /// Bytes per second that buy a body one more second past `bodyTimeout`.
    public var bodyMinRate: Int
    /// A keep-alive connection with no request in progress is closed after this.
    public var idleTimeout: Duration
    /// A peer that reads none of a pending response for this long is dropped.
    public var writeTimeout: Duration
    /// On shutdown, how long in-flight requests get to finish.
    public var shutdownGracePeriod: Duration
    /// Which browser pages on other origins may call the server.
    public var cors: CORSPolicy
    /// Told of every answer as it is queued, on the event loop's thread: keep it short
    /// (a counter, a buffered log line).
    public var requestObserver: (@Sendable (CompletedRequest) -> Void)?

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        eventLoops: Int = ServerConfiguration.coreCount,
        maxConnections: Int = 10_000,
        maxConnectionsPerAddress: Int = 512,
        uncappedAddresses: Set<String> = [],
        headLimits: HeadLimits = HeadLimits(),
        headerTimeout: Duration = .seconds(10),
        bodyTimeout: Duration = .seconds(30),
        bodyMinRate: Int = 1024,
        idleTimeout: Duration = .seconds(60),
        writeTimeout: Duration = .seconds(30),
        shutdownGracePeriod: Duration = .seconds(10),
        cors: CORSPolicy = .disabled,
        requestObserver: (@Sendable (CompletedRequest) -> Void)? = nil
    ) {
        self.cors = cors
        self.requestObserver = requestObserver
        self.host = host
        self.port = port
        self.eventLoops = eventLoops
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.uncappedAddresses = uncappedAddresses
        self.headLimits = headLimits
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.bodyMinRate = bodyMinRate
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
