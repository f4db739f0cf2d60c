import Logging
import Synchronization

/// What every event loop of one server reads: immutable configuration and routes, and
/// the one counter they share.
final class ServerShared: Sendable {
    let configuration: ServerConfiguration
    let router: Router
    let logger: Logger
    let errorResponder: @Sendable (any Error, Request) -> Response
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

    init(configuration: ServerConfiguration, router: Router, logger: Logger, errorResponder: @escaping @Sendable (any Error, Request) -> Response) {
        self.configuration = configuration
        self.router = router
        self.logger = logger
        self.errorResponder = errorResponder
        addressConnections = AddressConnections(limit: configuration.maxConnectionsPerAddress)
        uncappedAddresses = Set(configuration.uncappedAddresses.map(PeerAddress.canonical))
    }
}
