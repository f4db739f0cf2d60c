import HTTPServer
import LatchkeyCore

/// What every handler of the API may use: the domain services, the per-loop readers and
/// token caches, and the throttles. Built once at start-up, shared read-only.
struct APIContext: Sendable {
    let core: CoreServices
    let readers: PerLoop<StoreReader>
    let tokenCaches: PerLoop<VerifiedTokenCache>
    let throttle: RequestThrottle
    /// For handlers that answer through a sink, outside the engine's own error mapping.
    let errors: ErrorResponder

    var accounts: AccountService { core.accounts }
    var sessions: SessionService { core.sessions }
    var policy: AccountsPolicy { core.policy }

    /// The loop's own reader: only for inline handlers.
    func reader(_ request: Request) -> StoreReader {
        readers[request.eventLoopIndex]
    }

    /// Bearer check for inline handlers (on the loop's reader).
    func authenticateInline(_ request: Request) throws -> Authenticated {
        try core.verifier.verify(
            authorization: request.header("authorization"), reader: reader(request),
            cache: tokenCaches[request.eventLoopIndex]
        )
    }

    /// Bearer check for off-loop handlers (on a pooled reader).
    func authenticate(_ request: Request) throws -> Authenticated {
        try core.authenticate(authorization: request.header("authorization"))
    }

    func userAgent(_ request: Request) -> String? {
        request.header("user-agent").map { String($0.prefix(512)) }
    }
}
