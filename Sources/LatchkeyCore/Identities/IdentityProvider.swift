/// A sign-in provider whose ID tokens this server accepts: Apple, Google, or an OpenID
/// Connect provider from `oidcProviders`. Built once from configuration.
public struct IdentityProvider: Sendable {
    /// Where the provider's JSON Web Key Set is.
    public enum KeySource: Sendable, Equatable {
        /// At a fixed URL (Apple: `{appleBaseURL}/auth/keys`).
        case jwks(url: String)
        /// Named by `jwks_uri` in `{issuer}/.well-known/openid-configuration`, whose own
        /// `issuer` must equal the configured one byte for byte.
        case discovery
    }

    /// The path segment of `/v1/auth/idp/{provider}` and the identities' `provider`.
    public let name: String
    /// Every `iss` the provider's tokens may carry, compared as bytes; the first is the
    /// configured one, the one discovery must name.
    public let issuers: [String]
    /// The `aud` values accepted: the apps' client ids (bundle ids, services ids, …).
    public let clientIDs: [String]
    public let keySource: KeySource
    /// Apple puts the SHA-256 (hex) of the app's nonce in its token, not the nonce itself.
    public let acceptsHashedNonce: Bool

    public init(name: String, issuers: [String], clientIDs: [String], keySource: KeySource, acceptsHashedNonce: Bool = false) {
        self.name = name
        self.issuers = issuers
        self.clientIDs = clientIDs
        self.keySource = keySource
        self.acceptsHashedNonce = acceptsHashedNonce
    }

    /// The built-in Sign in with Apple provider's name, whose server side (code exchange,
    /// revocation, notifications) only it has.
    public static let appleName = "apple"

    public static let defaultAppleBaseURL = "https://appleid.apple.com"
    public static let defaultGoogleIssuer = "https://accounts.google.com"

    /// Sign in with Apple: issuer and keys under `baseURL` as Apple lays them out.
    public static func apple(baseURL: String, clientIDs: [String]) -> IdentityProvider {
        IdentityProvider(name: appleName, issuers: [baseURL], clientIDs: clientIDs, keySource: .jwks(url: baseURL + "/auth/keys"), acceptsHashedNonce: true)
    }

    /// Google also writes its issuer without the scheme (`accounts.google.com`) in some tokens.
    public static func google(issuer: String, clientIDs: [String]) -> IdentityProvider {
        let bare = issuer.hasPrefix("https://") ? [String(issuer.dropFirst("https://".count))] : []
        return IdentityProvider(name: "google", issuers: [issuer] + bare, clientIDs: clientIDs, keySource: .discovery)
    }

    public static func openIDConnect(name: String, issuer: String, clientIDs: [String]) -> IdentityProvider {
        IdentityProvider(name: name, issuers: [issuer], clientIDs: clientIDs, keySource: .discovery)
    }

    /// The configured issuer: what discovery is asked of and must name.
    var issuer: String { issuers[0] }
}
