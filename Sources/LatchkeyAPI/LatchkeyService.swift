import AuthCrypto
import HTTPServer
import LatchkeyCore
import Logging
import SQLite

/// Everything the API needs from configuration, beyond the database and keys.
public struct ServiceOptions: Sendable {
    public var policy: AccountsPolicy
    public var ipRatePerMinute: Int
    public var trustedProxies: [String]
    /// Must match the server's, so every loop has its own read connection.
    public var eventLoops: Int
    public var hashingThreads: Int
    /// Hashes allowed to wait for a thread before logins get 503.
    public var hashingQueueCapacity: Int

    public init(policy: AccountsPolicy, ipRatePerMinute: Int, trustedProxies: [String], eventLoops: Int, hashingThreads: Int, hashingQueueCapacity: Int = 64) {
        self.policy = policy
        self.ipRatePerMinute = ipRatePerMinute
        self.trustedProxies = trustedProxies
        self.eventLoops = eventLoops
        self.hashingThreads = hashingThreads
        self.hashingQueueCapacity = hashingQueueCapacity
    }
}

/// The Latchkey HTTP API over its domain: builds the router and maps errors, given what
/// the executable opened (database, keys) and configured.
public final class LatchkeyService: Sendable {
    private let readers: PerLoop<Connection>
    private let context: APIContext

    public init(database: Database, keyring: Keyring, options: ServiceOptions, logger: Logger) throws {
        readers = try PerLoop(count: options.eventLoops) { _ in try database.openReader() }
        let policy = options.policy
        let issuer = TokenIssuer(keyring: keyring, policy: policy)
        context = APIContext(
            accounts: AccountService(
                database: database,
                hashing: HashingPool(threads: options.hashingThreads, capacity: options.hashingQueueCapacity),
                issuer: issuer, policy: policy
            ),
            sessions: SessionService(database: database, issuer: issuer, policy: policy),
            verifier: AccessTokenVerifier(keyring: keyring, policy: policy),
            database: database, readers: readers,
            tokenCaches: PerLoop(count: options.eventLoops) { _ in VerifiedTokenCache() }, policy: policy,
            throttle: RequestThrottle(enabled: policy.rateLimitsEnabled, perMinute: options.ipRatePerMinute, trustedProxies: options.trustedProxies),
            errors: ErrorResponder(logger: logger)
        )
    }

    public func makeRouter() -> Router {
        var router = Router()
        HealthRoutes.register(on: &router, readers: readers)
        AccountRoutes.register(on: &router, context)
        OpenAPIRoute.register(on: &router)
        return router
    }

    public func errorResponse(_ error: any Error, _ request: Request) -> Response {
        context.errors.response(for: error, to: request)
    }
}
