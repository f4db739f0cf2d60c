import AuthCrypto
import FlatJSON
import Synchronization

/// The `client_secret` Apple's token endpoints want: an ES256 JWT signed with the team's
/// key (`appleKeyFile`), `kid` `appleKeyID` in its header, `iss` `appleTeamID`, `aud` the
/// base URL, `sub` the client id. Apple accepts up to six months of life; ours live five
/// minutes (a secret that leaks is soon worthless) and each is reused until a minute before
/// it ends, so a burst of sign-ins or revocations signs once per client id.
public final class AppleClientSecrets: Sendable {
    static let lifetime: Int64 = 300
    /// A secret this close to its end is not handed out: it must still be valid when Apple reads it.
    static let renewal: Int64 = 60
    /// Client ids come from the configuration (`appleClientIDs`); the cache never grows past this.
    static let maximumCached = 64

    let teamID: String
    let keyID: String
    let audience: String
    private let key: P256PrivateKey
    private let cached = Mutex<[String: (secret: String, expiresAt: Int64)]>([:])

    /// `audience` is `appleBaseURL` (Apple's issuer, `https://appleid.apple.com`).
    public init(teamID: String, keyID: String, key: P256PrivateKey, audience: String) {
        self.teamID = teamID
        self.keyID = keyID
        self.key = key
        self.audience = audience.hasSuffix("/") ? String(audience.dropLast()) : audience
    }

    func secret(for clientID: String, now: Int64) -> String {
        if let entry = cached.withLock({ $0[clientID] }), entry.expiresAt - now > Self.renewal { return entry.secret }
        let expiresAt = now + Self.lifetime
        let claims = FlatJSONObject([
            "iss": .string(teamID), "iat": .integer(now), "exp": .integer(expiresAt), "aud": .string(audience), "sub": .string(clientID),
        ])
        let secret = JWT.signES256(claims, key: key, keyID: keyID)
        cached.withLock { cache in
            if cache.count >= Self.maximumCached { cache.removeAll() }
            cache[clientID] = (secret, expiresAt)
        }
        return secret
    }
}
