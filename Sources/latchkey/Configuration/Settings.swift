import AuthCrypto
import HTTPServer
import LatchkeyAPI
import LatchkeyCore
import Logging

/// Every setting of `latchkey serve`, with its built-in default (ARCHITECTURE.md,
/// "Configuration"). Filled by `SettingsLoader` in the order defaults < file < env < flags.
struct Settings: Sendable {
    var host = "127.0.0.1"
    var port = 8080
    /// Nil means `http://{host}:{port}` with the bound port.
    var publicURL: String?
    var dataDir = "./data"
    var database = DatabaseSetting.sqlite
    /// PostgreSQL connections of this instance, writers and readers together.
    var databasePoolSize = 8
    var eventLoops = ServerConfiguration.coreCount
    var maxConnections = 10_000
    var maxConnectionsPerAddress = 512
    /// `kid:base64key` pairs; nil means the key generated into the data directory.
    var signingKeys: [(id: String, secret: [UInt8])]?
    var issuer: String?
    var audience = "latchkey"
    var accessTokenTTL = 3600
    /// HS256 signs with the HMAC keys; ES256 with P-256 keys of the data directory's
    /// keyring, whose public halves `/.well-known/jwks.json` publishes.
    var accessTokenAlgorithm = AccessTokenAlgorithm.hs256
    var sessionIdleTimeout = 2_592_000
    var sessionMaxLifetime = 31_536_000
    var refreshReuseGrace = 10
    var passwordIterations = 600_000
    var maxPictureBytes = 5_242_880
    var presenceTimeout = 120
    var smtpURL: String?
    /// Nil means: required unless `smtpURL` names a loopback host.
    var smtpRequireTLS: Bool?
    /// Nil means the system's trust store.
    var smtpCAFile: String?
    var mailFrom = "Latchkey <no-reply@localhost>"
    var productName = "Latchkey"
    var rateLimitsEnabled = true
    var metricsEnabled = true
    /// Nil: `/metrics` needs no credentials. A secret: never logged or echoed.
    var metricsToken: String?
    /// On by default: an operator expects a line per request, as from nginx (the lines
    /// are rendered as bytes and written in batches, see BufferedStandardError).
    var accessLog = true
    var auditRetentionDays = 365
    var loginMaxFailures = 10
    var accountMaxFailures = 100
    var loginFailureWindow = 900
    var ipRatePerMinute = 60
    var trustedProxies: [String] = []
    var corsOrigins: [String] = []
    /// `TEAMID.bundle.id` of the iOS apps in `/.well-known/apple-app-site-association`.
    var appleAppIDs: [String] = []
    /// The Android apps in `/.well-known/assetlinks.json`.
    var androidApps: [AppAssociation.AndroidApp] = []
    /// Sign in with Apple's server side (the code exchange, revocation on deletion): the
    /// team and key that sign the client secret, and the `.p8` file; all three or none.
    var appleTeamID: String?
    var appleKeyID: String?
    var appleKeyFile: String?
    /// WebAuthn's relying party; nil: from the public URL and productName (`relyingParty`).
    var webAuthnRPID: String?
    var webAuthnRPName: String?
    var webAuthnOrigins: [String]?
    /// Sign in with Apple: the bundle ids and services ids accepted as `aud`; off while empty.
    var appleClientIDs: [String] = []
    var appleBaseURL = IdentityProvider.defaultAppleBaseURL
    /// Sign in with Google: off while empty.
    var googleClientIDs: [String] = []
    var googleIssuer = IdentityProvider.defaultGoogleIssuer
    var oidcProviders: [OIDCProviderSetting] = []
    /// CAs added for outbound HTTPS (the providers' keys); nil: the system's trust store.
    var outboundCAFile: String?
    var reservedDisplayNames = Settings.defaultReservedDisplayNames
    var logLevel = Logger.Level.info
    var logFormat = LogFormat.text
    var headerTimeout = 10
    var bodyTimeout = 30
    var bodyMinRate = 1024
    var idleTimeout = 60
    var shutdownGracePeriod = 10

    static let defaultReservedDisplayNames = [
        "admin", "administrator", "root", "support", "help", "security", "system", "staff", "official",
        "moderator", "latchkey", "api", "www", "mail", "null", "undefined", "me",
    ]

    /// One line per duration set below its usual floor, for the start-up log.
    var unusuallyShortDurations: [String] {
        SettingsCatalog.all.compactMap { spec in
            guard let (path, floor) = spec.unusuallyShort, self[keyPath: path] < floor else { return nil }
            return "\(spec.key) is \(self[keyPath: path]) s, unusually short (usually at least \(floor) s)"
        }
    }

    /// The public URL with the port actually bound (which differs from `port` when it is 0).
    func resolvedPublicURL(boundPort: Int) -> String {
        if let publicURL { return publicURL }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "http://\(shownHost):\(boundPort)"
    }
}

enum LogFormat: String, Sendable {
    case text
    case json
}
