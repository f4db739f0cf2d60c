import Glibc
import Logging
import Synchronization
import Threads

/// The HTTP/1.1 server: one epoll event loop per thread, all accepting from one listener
/// and sharing one immutable router.
public final class HTTPServer: Sendable {
    private struct State {
        var loops: [EventLoop] = []
        var threads: [pthread_t] = []
        var port = 0
        var listener: Int32 = -1
    }

    private let shared: ServerShared
    private let state = Mutex(State())

    /// `errorResponder` turns what a handler throws into a response; by default a 500
    /// problem, with the error logged and never sent to the client. `problemResponder`
    /// renders the engine's own failures (`Problem`), so they look like the application's
    /// problems; by default `Problem.fallbackResponse`.
    public init(
        configuration: ServerConfiguration,
        router: Router,
        logger: Logger,
        errorResponder: (@Sendable (any Error, Request) -> Response)? = nil,
        problemResponder: @escaping @Sendable (Problem) -> Response = Problem.fallbackResponse
    ) {
        shared = ServerShared(
            configuration: configuration, router: router, logger: logger,
            errorResponder: errorResponder ?? { error, request in
                logger.error("unhandled error: \(error)", metadata: ["request-id": "\(request.requestID)"])
                return problemResponder(.internalError)
            },
            problemResponder: problemResponder
        )
    }

    /// The bound port (useful with port 0); 0 before `start()`.
    public var port: Int { state.withLock { $0.port } }

    /// Connections open right now, across all loops.
    public var openConnections: Int { shared.openConnections.load(ordering: .relaxed) }

    /// Binds and starts the loops; returns once the server accepts connections.
    public func start() throws(ListenError) {
        try start(on: Listener(host: shared.configuration.host, port: shared.configuration.port))
    }

    /// Starts on a listener bound beforehand, for callers that need the port (port 0)
    /// before they can build their routes.
    public func start(on listener: Listener) throws(ListenError) {
        signal(SIGPIPE, SIG_IGN)
        let configuration = shared.configuration
        var loops: [EventLoop] = []
        for index in 0..<max(1, configuration.eventLoops) {
            do {
                loops.append(try EventLoop(index: index, listener: listener.fd, shared: shared))
            } catch {
                closeDescriptor(listener.fd)
                throw .system(error)
            }
        }
        shared.loopsReleasingListener.store(loops.count, ordering: .relaxed)
        shared.roster.set(loops)
        let threads = loops.map { loop in DedicatedThread.spawn(named: "http-loop-\(loop.index)") { loop.run() } }
        state.withLock { state in
            state.loops = loops
            state.threads = threads
            state.port = listener.port
            state.listener = listener.fd
        }
    }

    /// Graceful stop: no new connections, in-flight requests finish (up to the grace
    /// period), streams are closed, then every loop thread has ended.
    public func shutdown() {
        let (loops, threads, listener) = state.withLock { state in
            defer { state.loops = []; state.threads = []; state.listener = -1 }
            return (state.loops, state.threads, state.listener)
        }
        guard listener >= 0 else { return }
        for loop in loops { loop.post(.shutdown) }
        // Close the listener as soon as every loop has let go of it, so new clients are
        // refused at once instead of waiting in the backlog for the drain to end.
        for _ in 0..<10_000 where shared.loopsReleasingListener.load(ordering: .acquiring) > 0 {
            usleep(1_000)
        }
        closeDescriptor(listener)
        for thread in threads { pthread_join(thread, nil) }
        shared.roster.set([])
    }
}
