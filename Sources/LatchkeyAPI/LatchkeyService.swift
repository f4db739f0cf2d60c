import HTTPServer
import LatchkeyCore
import Logging

/// Everything the API needs from configuration beyond the domain itself.
public struct ServiceOptions: Sendable {
    public var ipRatePerMinute: Int
    public var trustedProxies: [String]
    /// Must match the server's, so every loop has its own reader.
    public var eventLoops: Int
    public var pages: PageText
    /// The largest profile picture, decided from `Content-Length` before reading (413).
    public var maxPictureBytes: Int
    /// `GET /metrics` and the per-request recording behind it.
    public var metricsEnabled: Bool
    /// When set, `/metrics` answers only `Authorization: Bearer <metricsToken>` (else 401).
    public var metricsToken: String?
    /// A line per request, into `accessLogOutput` in its format, or without one on the
    /// `access` logger with its fields rendered in `accessLogFormat` (see AccessLog).
    public var accessLog: Bool
    public var accessLogFormat: AccessLogFormat
    public var accessLogOutput: (any AccessLineOutput)?
    /// The apps named in `/.well-known/apple-app-site-association` and `assetlinks.json`.
    public var appAssociation: AppAssociation
    /// Where clients reach this server: the JWKS URL of `/.well-known/openid-configuration`
    /// is under it. Nil: the token issuer.
    public var publicURL: String?

    public init(
        ipRatePerMinute: Int, trustedProxies: [String], eventLoops: Int, pages: PageText = .builtIn(), maxPictureBytes: Int = 5_242_880,
        metricsEnabled: Bool = true, metricsToken: String? = nil, accessLog: Bool = true, accessLogFormat: AccessLogFormat = .text,
        accessLogOutput: (any AccessLineOutput)? = nil, appAssociation: AppAssociation = AppAssociation(), publicURL: String? = nil
    ) {
        self.appAssociation = appAssociation
        self.publicURL = publicURL
        self.accessLog = accessLog
        self.accessLogFormat = accessLogFormat
        self.accessLogOutput = accessLogOutput
        self.maxPictureBytes = maxPictureBytes
        self.metricsEnabled = metricsEnabled
        self.metricsToken = metricsToken
        self.ipRatePerMinute = ipRatePerMinute
        self.trustedProxies = trustedProxies
        self.eventLoops = eventLoops
        self.pages = pages
    }
}

/// The Latchkey HTTP API over its domain: builds the router and maps errors, given the
/// domain the executable assembled and the API's own settings.
public final class LatchkeyService: Sendable {
    private let context: APIContext
    private let placement: HandlerPlacement
    /// Nil when metrics are off.
    private let requests: RequestMetrics?
    /// Nil when `/metrics` needs no token.
    private let metricsToken: MetricsToken?
    /// Nil when the access log is off.
    private let accessLog: AccessLog?
    private let appAssociation: AppAssociation
    private let publicURL: String?
    /// The server's and the outbox's figures for `/metrics`, attached once they exist.
    public let serverGauges = ServerGauges()

    public init(core: CoreServices, options: ServiceOptions, logger: Logger) throws {
        requests = options.metricsEnabled ? RequestMetrics(eventLoops: options.eventLoops) : nil
        metricsToken = options.metricsToken.map(MetricsToken.init)
        appAssociation = options.appAssociation
        publicURL = options.publicURL
        accessLog = options.accessLog
            ? AccessLog(
                logger: Logger(label: "access"), output: options.accessLogOutput,
                clientAddress: ClientAddress(trustedProxies: options.trustedProxies), format: options.accessLogFormat
            ) : nil
        let errors = ErrorResponder(logger: logger)
        context = APIContext(
            core: core,
            throttle: RequestThrottle(
                enabled: core.policy.rateLimitsEnabled, perMinute: options.ipRatePerMinute, trustedProxies: options.trustedProxies
            ),
            errors: errors,
            pages: options.pages,
            maxPictureBytes: options.maxPictureBytes
        )
        placement = try HandlerPlacement(core: core, eventLoops: options.eventLoops, errors: errors)
        let streams = core.presence.streams
        Task.detached { await streams.maintain(sweepEvery: .seconds(5), keepAliveEvery: .seconds(15)) }
    }

    /// The routes of docs/api.md, bound by area.
    public func makeRouter() -> Router {
        var routes = Routes(placement: placement, throttle: context.throttle, verifier: context.core.verifier)
        OperationsRoutes.bind(&routes, context.core, metrics: requests.map { ($0, serverGauges, metricsToken) })
        AccountsRoutes.bind(&routes, context)
        SessionsRoutes.bind(&routes, context)
        FactorsRoutes.bind(&routes, context)
        MailPagesRoutes.bind(&routes, context)
        UsersRoutes.bind(&routes, context)
        PicturesRoutes.bind(&routes, context)
        PresenceRoutes.bind(&routes, context)
        PasskeysRoutes.bind(&routes, context)
        IdentitiesRoutes.bind(&routes, context)
        AppAssociationRoutes.bind(&routes, appAssociation)
        TokenPublicationRoutes.bind(
            &routes, keys: context.core.keyring, policy: context.core.policy, publicURL: publicURL ?? context.core.policy.issuer
        )
        return routes.router
    }

    /// For `ServerConfiguration.requestObserver`: every answer is counted for `/metrics`
    /// and logged (nil when both are off).
    public var requestObserver: (@Sendable (CompletedRequest) -> Void)? {
        let (requests, accessLog) = (requests, accessLog)
        guard requests != nil || accessLog != nil else { return nil }
        return { completed in
            let labels = RequestLabels(method: completed.method, route: completed.route)
            requests?.record(completed, labels)
            accessLog?.record(completed, labels)
        }
    }

    public func errorResponse(_ error: any Error, _ request: Request) -> Response {
        context.errors.response(for: error, to: request)
    }

    /// The server's `problemResponder`: the engine's failures rendered as the contract's problems.
    public func problemResponse(_ problem: Problem) -> Response {
        ErrorResponder.problem(for: problem).response()
    }
}
