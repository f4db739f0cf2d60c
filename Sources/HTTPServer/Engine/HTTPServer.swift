import Glibc
import Logging
import Synchronization

/// The HTTP/1.1 server: one epoll event loop per thread, each with its own SO_REUSEPORT
/// listener, sharing one immutable router.
public final class HTTPServer: Sendable {
    private struct State {
        var loops: [EventLoop] = []
        var threads: [pthread_t] = []
        var port = 0
    }

    private let shared: ServerShared
    private let state = Mutex(State())

    /// `errorResponder` turns what a handler throws into a response; by default a 500
    /// problem, with the error logged and never sent to the client.
    public init(
        configuration: ServerConfiguration,
        router: Router,
        logger: Logger,
        errorResponder: (@Sendable (any Error, Request) -> Response)? = nil
    ) {
        shared = ServerShared(
            configuration: configuration, router: router, logger: logger,
            errorResponder: errorResponder ?? { error, request in
                logger.error("unhandled error: \(error)", metadata: ["request-id": "\(request.requestID)"])
                return Problem.internalError.response()
            }
        )
    }

    /// The bound port (useful with port 0); 0 before `start()`.
    public var port: Int { state.withLock { $0.port } }

    /// Connections open right now, across all loops.
    public var openConnections: Int { shared.openConnections.load(ordering: .relaxed) }

    /// Binds and starts the loops; returns once the server accepts connections.
    public func start() throws(ListenError) {
        signal(SIGPIPE, SIG_IGN)
        let configuration = shared.configuration
        let first = try Socket.listen(host: configuration.host, port: configuration.port)
        var listeners = [first.fd]
        do {
            for _ in 1..<max(1, configuration.eventLoops) {
                listeners.append(try Socket.listen(host: configuration.host, port: first.port).fd)
            }
        } catch {
            listeners.forEach(closeDescriptor)
            throw error
        }
        var loops: [EventLoop] = []
        for (index, listener) in listeners.enumerated() {
            do {
                loops.append(try EventLoop(index: index, listener: listener, shared: shared))
            } catch {
                listeners.forEach(closeDescriptor)
                throw .system(error)
            }
        }
        let threads = loops.map { loop in LoopThread.spawn { loop.run() } }
        state.withLock { state in
            state.loops = loops
            state.threads = threads
            state.port = first.port
        }
    }

    /// Graceful stop: no new connections, in-flight requests finish (up to the grace
    /// period), streams are closed, then every loop thread has ended.
    public func shutdown() {
        let (loops, threads) = state.withLock { state in
            defer { state.loops = []; state.threads = [] }
            return (state.loops, state.threads)
        }
        for loop in loops { loop.post(.shutdown) }
        for thread in threads { pthread_join(thread, nil) }
    }
}

/// A plain pthread per event loop: loops block in epoll_wait and must not occupy the
/// cooperative pool that runs off-loop handlers.
enum LoopThread {
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    static func spawn(_ run: @escaping @Sendable () -> Void) -> pthread_t {
        var thread = pthread_t()
        let body = Unmanaged.passRetained(Body(run)).toOpaque()
        let result = pthread_create(&thread, nil, { pointer in
            Unmanaged<Body>.fromOpaque(pointer!).takeRetainedValue().run()
            return nil
        }, body)
        precondition(result == 0, "pthread_create failed (\(result)): the process is out of threads")
        return thread
    }
}
