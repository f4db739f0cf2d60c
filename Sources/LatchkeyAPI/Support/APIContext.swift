import HTTPServer
import LatchkeyCore
import SQLite

/// What every handler of the API may use: the domain services, the per-loop read
/// connections and the throttles. Built once at start-up, shared read-only.
struct APIContext: Sendable {
    let accounts: AccountService
    let sessions: SessionService
    let verifier: AccessTokenVerifier
    let database: Database
    let readers: PerLoop<Connection>
    let tokenCaches: PerLoop<VerifiedTokenCache>
    let policy: AccountsPolicy
    let throttle: RequestThrottle
    /// For handlers that answer through a sink, outside the engine's own error mapping.
    let errors: ErrorResponder

    /// The loop's own read connection: only for inline handlers.
    func reader(_ request: Request) -> Connection {
        readers[request.eventLoopIndex]
    }

    /// Bearer check for inline handlers (on the loop's connection).
    func authenticateInline(_ request: Request) throws -> Authenticated {
        try verifier.verify(
            authorization: request.header("authorization"), reader: reader(request),
            cache: tokenCaches[request.eventLoopIndex]
        )
    }

    /// Bearer check for off-loop handlers (on a pooled connection).
    func authenticate(_ request: Request) throws -> Authenticated {
        try database.read { reader in try verifier.verify(authorization: request.header("authorization"), reader: reader) }
    }

    func userAgent(_ request: Request) -> String? {
        request.header("user-agent").map { String($0.prefix(512)) }
    }
}
