import AuthCrypto
import FlatJSON

/// Signs access tokens and mints refresh tokens.
public struct TokenIssuer: Sendable {
    public let keyring: Keyring
    let policy: AccountsPolicy

    public init(keyring: Keyring, policy: AccountsPolicy) {
        self.keyring = keyring
        self.policy = policy
    }

    func pair(for user: User, sessionID: String, refreshToken: String, now: Int64) throws -> TokenPair {
        // The claims of API.md, "Objects": `sid` is checked on every request, so revocation is immediate.
        let claims = FlatJSONObject([
            "iss": .string(policy.issuer), "aud": .string(policy.audience), "sub": .string(user.id), "sid": .string(sessionID),
            "iat": .integer(now), "exp": .integer(now + policy.accessTokenTTL),
            "email": .string(user.email), "email_verified": .bool(user.emailVerified),
        ])
        return TokenPair(
            accessToken: JWT.sign(claims, with: keyring), expiresIn: policy.accessTokenTTL,
            refreshToken: refreshToken, user: user
        )
    }

    /// A new refresh token for `sessionID` and the hash that is all the database keeps of
    /// it. The token is `<session id>.<256 random bits>`: the id only finds the session
    /// row (it is no secret: access tokens carry it too), the random part is the secret.
    static func newRefreshToken(for sessionID: String) -> (token: String, hash: [UInt8]) {
        let token = sessionID + "." + RandomID.secret()
        return (token, refreshHash(token))
    }

    static func refreshHash(_ token: String) -> [UInt8] {
        SHA256.hash(token.utf8)
    }

    /// The session id a refresh token names, if it has the shape of one.
    static func sessionID(ofRefreshToken token: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 32, parts[1].utf8.count >= 43 else { return nil }
        return String(parts[0])
    }
}
