import HTTPServer
import LatchkeyCore
import Logging
import SQLite

/// The Latchkey HTTP API over its domain: builds the router and maps errors, given what
/// the executable opened (database, keys).
public final class LatchkeyService: Sendable {
    public let database: Database
    private let readers: PerLoop<Connection>
    private let errors: ErrorResponder

    /// `eventLoops` must match the server's, so every loop has its own read connection.
    public init(database: Database, eventLoops: Int, logger: Logger) throws {
        self.database = database
        readers = try PerLoop(count: eventLoops) { _ in try database.openReader() }
        errors = ErrorResponder(logger: logger)
    }

    public func makeRouter() -> Router {
        var router = Router()
        HealthRoutes.register(on: &router, readers: readers)
        return router
    }

    public func errorResponse(_ error: any Error, _ request: Request) -> Response {
        errors.response(for: error, to: request)
    }
}
