import AuthCrypto

/// The `metricsToken` setting: a shared secret the operator's scraper sends as a bearer
/// token to read `/metrics`. Only its SHA-256 is kept, and a presented token is hashed
/// before the constant-time comparison, so the time taken tells neither where the bytes
/// differ nor how long the secret is.
public struct MetricsToken: Sendable {
    private let digest: [UInt8]

    public init(_ secret: String) {
        digest = SHA256.hash(secret.utf8)
    }

    /// Whether `authorization` is `Bearer <the token>` (the scheme in any case, the token
    /// byte for byte).
    public func admits(authorization: String?) -> Bool {
        guard let presented = AccessTokenVerifier.bearerToken(authorization) else { return false }
        return ConstantTime.equals(SHA256.hash(presented.utf8), digest)
    }
}
