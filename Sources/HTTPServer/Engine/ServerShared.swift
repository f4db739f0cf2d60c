import Logging
import Synchronization

/// What every event loop of one server reads: immutable configuration and routes, and
/// the one counter they share.
final class ServerShared: Sendable {
    let configuration: ServerConfiguration
    let router: Router
    let logger: Logger
    let errorResponder: @Sendable (any Error, Request) -> Response
    let problemResponder: @Sendable (Problem) -> Response
    /// Across all loops, so the connection cap holds for the server as a whole.
    let openConnections = Atomic<Int>(0)
    /// Open connections per peer address (IPv6 per /64), across all loops, for the
    /// per-address cap.
    let addressConnections: AddressConnections
    /// `configuration.uncappedAddresses` in `PeerAddress.canonical` spelling.
    let uncappedAddresses: Set<String>
    /// Loops that still watch the listener; on shutdown it is closed only at zero, so no
    /// loop can be inside accept() on a closed descriptor.
    let loopsReleasingListener = Atomic<Int>(0)
    /// Where an accepted connection goes (`LoopRoster`).
    let roster = LoopRoster()

    init(
        configuration: ServerConfiguration, router: Router, logger: Logger,
        errorResponder: @escaping @Sendable (any Error, Request) -> Response,
        problemResponder: @escaping @Sendable (Problem) -> Response = Problem.fallbackResponse
    ) {
        self.configuration = configuration
        self.router = router
        self.logger = logger
        self.errorResponder = errorResponder
        self.problemResponder = problemResponder
        addressConnections = AddressConnections(limit: configuration.maxConnectionsPerAddress)
        uncappedAddresses = Set(configuration.uncappedAddresses.map(PeerAddress.canonical))
    }
}

extension ServerShared {
    /// The engine's answer to its own failure, rendered by the application; `fields` are
    /// the protocol's (`Allow`, `Retry-After`), which the engine adds itself.
    func response(to problem: Problem, adding fields: [HTTPField] = []) -> Response {
        var response = problemResponder(problem)
        response.headers += fields
        return response
    }
}
