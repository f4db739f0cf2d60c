import AuthCrypto

/// Signs access tokens and mints refresh tokens.
public struct TokenIssuer: Sendable {
    public let keyring: Keyring
    let policy: AccountsPolicy

    public init(keyring: Keyring, policy: AccountsPolicy) {
        self.keyring = keyring
        self.policy = policy
    }

    func pair(for user: User, sessionID: String, refreshToken: String, now: Int64) throws -> TokenPair {
        let claims = AccessClaims(
            iss: policy.issuer, aud: policy.audience, sub: user.id, sid: sessionID,
            iat: now, exp: now + policy.accessTokenTTL, email: user.email, email_verified: user.emailVerified
        )
        return TokenPair(
            accessToken: try JWT.sign(claims, with: keyring), expiresIn: policy.accessTokenTTL,
            refreshToken: refreshToken, user: user
        )
    }

    /// A new refresh token and the hash that is all the database keeps of it.
    static func newRefreshToken() -> (token: String, hash: [UInt8]) {
        let token = RandomID.secret()
        return (token, refreshHash(token))
    }

    static func refreshHash(_ token: String) -> [UInt8] {
        SHA256.hash(token.utf8)
    }
}
