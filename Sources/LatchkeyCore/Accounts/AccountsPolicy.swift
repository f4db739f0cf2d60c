/// The settings the account and session logic obeys, taken from configuration.
public struct AccountsPolicy: Sendable {
    public var passwordIterations: Int
    public var accessTokenTTL: Int64
    public var sessionIdleTimeout: Int64
    /// A session ends this long after it began, however much it is used.
    public var sessionMaxLifetime: Int64
    public var refreshReuseGrace: Int64
    public var issuer: String
    public var audience: String
    public var reservedDisplayNames: ReservedDisplayNames
    public var rateLimitsEnabled: Bool
    /// Failed passwords for one account from one client address per window.
    public var loginMaxFailures: Int
    /// Failed passwords for one account from all addresses together per window.
    public var accountMaxFailures: Int
    /// The window failed logins are counted in (15 minutes in the contract).
    public var loginFailureWindow: Int64
    /// Silence after which "online" or "away" reads as offline.
    public var presenceTimeout: Int64

    public init(
        passwordIterations: Int = 600_000, accessTokenTTL: Int64 = 3600, sessionIdleTimeout: Int64 = 2_592_000,
        sessionMaxLifetime: Int64 = 31_536_000, refreshReuseGrace: Int64 = 10, issuer: String, audience: String = "latchkey",
        reservedDisplayNames: ReservedDisplayNames, rateLimitsEnabled: Bool = true,
        loginMaxFailures: Int = 10, accountMaxFailures: Int = 100, loginFailureWindow: Int64 = 900, presenceTimeout: Int64 = 120
    ) {
        self.presenceTimeout = presenceTimeout
        self.passwordIterations = passwordIterations
        self.accessTokenTTL = accessTokenTTL
        self.sessionIdleTimeout = sessionIdleTimeout
        self.sessionMaxLifetime = sessionMaxLifetime
        self.refreshReuseGrace = refreshReuseGrace
        self.issuer = issuer
        self.audience = audience
        self.reservedDisplayNames = reservedDisplayNames
        self.rateLimitsEnabled = rateLimitsEnabled
        self.loginMaxFailures = loginMaxFailures
        self.accountMaxFailures = accountMaxFailures
        self.loginFailureWindow = loginFailureWindow
    }
}
