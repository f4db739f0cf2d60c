import Logging
@testable import HTTPServer

/// An in-process server on an ephemeral port of 127.0.0.1 with the test routes.
struct TestServer: Sendable {
    let server: HTTPServer
    let probe: TestProbe

    var port: Int { server.port }

    static func start(
        _ adjust: (inout ServerConfiguration) -> Void = { _ in },
        problemResponder: @escaping @Sendable (Problem) -> Response = Problem.fallbackResponse
    ) throws -> TestServer {
        // A long idle timeout unless a test sets its own: on a loaded 2-core machine a test
        // can wait on the shared task pool for longer than the default 60 s, and its held
        // keep-alive connections must not be closed under it.
        var configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, eventLoops: 2, idleTimeout: .seconds(600), shutdownGracePeriod: .seconds(3)
        )
        adjust(&configuration)
        let probe = TestProbe()
        let logger = Logger(label: "http-server-tests") { _ in SwiftLogNoOpLogHandler() }
        let server = HTTPServer(
            configuration: configuration, router: TestRoutes.router(probe: probe), logger: logger, problemResponder: problemResponder
        )
        try server.start()
        return TestServer(server: server, probe: probe)
    }

    func connect() async throws -> RawClient {
        try await RawClient.connect(port: port)
    }

    /// `shutdown()` joins the loop threads, so it must not block a cooperative thread.
    func stop() async {
        _ = try? await OwnThread.run { server.shutdown() }
    }
}

/// Starts a server, runs `body`, and stops the server whether or not `body` threw.
func withTestServer<R: Sendable>(
    _ adjust: (inout ServerConfiguration) -> Void = { _ in },
    problemResponder: @escaping @Sendable (Problem) -> Response = Problem.fallbackResponse,
    _ body: (TestServer) async throws -> R
) async throws -> R {
    let server = try TestServer.start(adjust, problemResponder: problemResponder)
    let result: Result<R, any Error>
    do {
        result = .success(try await body(server))
    } catch {
        result = .failure(error)
    }
    await server.stop()
    return try result.get()
}
