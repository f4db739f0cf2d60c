import AuthCrypto
import FlatJSON

/// Signs access tokens and mints refresh tokens.
public struct TokenIssuer: Sendable {
    public let keys: CurrentKeyring
    let refreshKey: RefreshTokenKey
    /// Sessions' seeds: 256 bits each that, with the refresh key, make their tokens.
    let seeds: RefreshSeeds
    let policy: AccountsPolicy
    /// Device tokens' key, derived from the refresh key: outside the database too.
    let deviceKey: HMACKey

    init(keys: CurrentKeyring, refreshKey: RefreshTokenKey, seeds: RefreshSeeds, policy: AccountsPolicy) {
        self.keys = keys
        self.refreshKey = refreshKey
        self.seeds = seeds
        self.policy = policy
        deviceKey = HMACKey(refreshKey.mac.authenticationCode(Array("latchkey device tokens".utf8)))
    }

    /// `pair` with a device token for `userID` at the password `epoch` (the device's own id
    /// kept when it presented a valid token).
    func withDeviceToken(_ pair: TokenPair, userID: String, epoch: Int64, device: DeviceToken? = nil) -> TokenPair {
        var pair = pair
        pair.deviceToken = DeviceToken.make(userID: userID, epoch: epoch, reusing: device?.rawID, key: deviceKey)
        return pair
    }

    func pair(for user: User, sessionID: String, methods: SignInMethods, refreshToken: String, now: Int64) throws -> TokenPair {
        // The claims of docs/api.md, "Objects": `sid` is checked on every request, so revocation is immediate.
        // Written in sorted key order, as `FlatJSONObject.serialized` would write them, but
        // without building and sorting a dictionary of them on every login and refresh.
        var claims = FlatJSONWriter()
        claims.write("amr", .strings(methods.values))
        claims.write("aud", .string(policy.audience))
        // No `email` claim for an account without an address.
        if let email = user.email { claims.write("email", .string(email)) }
        claims.write("email_verified", .bool(user.emailVerified))
        claims.write("exp", .integer(now + policy.accessTokenTTL))
        claims.write("iat", .integer(now))
        claims.write("iss", .string(policy.issuer))
        claims.write("sid", .string(sessionID))
        claims.write("sub", .string(user.id))
        return TokenPair(
            accessToken: JWT.sign(payload: claims.finish(), with: keys.keyring), expiresIn: policy.accessTokenTTL,
            refreshToken: refreshToken, user: user
        )
    }

    /// The refresh token of a session's `generation` (see `RefreshToken`).
    func refreshToken(sessionID: String, generation: Int64) -> String {
        RefreshToken.make(sessionID: sessionID, generation: generation, key: refreshKey.mac, seeds: seeds)
    }

    /// The refresh token of `generation` for the session of `presented`, under the seed
    /// derived when `presented` was checked.
    func refreshToken(following presented: RefreshToken, generation: Int64) -> String {
        RefreshToken.make(sessionID: presented.sessionID, generation: generation, key: refreshKey.mac, seed: presented.seed)
    }

    /// `token` if this server made it (of any generation), else nil.
    func authenticRefreshToken(_ token: String) -> RefreshToken? {
        RefreshToken(authenticating: token, key: refreshKey.mac, seeds: seeds)
    }
}
