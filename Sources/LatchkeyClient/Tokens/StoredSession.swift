import Foundation

/// What a token store keeps for the signed-in user: the two tokens, when the access token
/// runs out, and the user as last seen, so an app shows who is signed in at launch before
/// (and without) any network round trip.
public struct StoredSession: Codable, Sendable, Hashable {
    public var accessToken: String
    /// Renews the session; rotates on every refresh. Keep it as safe as a password.
    public var refreshToken: String
    /// When the access token stops working, by this device's clock.
    public var accessTokenExpiresAt: Date
    /// When the client refreshes ahead of expiry (`LatchkeyConfiguration.refreshAhead`).
    public var refreshAfter: Date
    public var user: User

    public init(accessToken: String, refreshToken: String, accessTokenExpiresAt: Date, refreshAfter: Date, user: User) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshAfter = refreshAfter
        self.user = user
    }

    /// A session from a token pair whose request was sent at `sentAt`: the token's
    /// lifetime is counted from then, which errs early whatever the clocks say.
    init(_ pair: TokenPair, sentAt: Date, refreshAhead: TimeInterval) {
        let lifetime = TimeInterval(max(0, pair.expiresIn))
        self.init(
            accessToken: pair.accessToken, refreshToken: pair.refreshToken,
            accessTokenExpiresAt: sentAt.addingTimeInterval(lifetime),
            refreshAfter: sentAt.addingTimeInterval(max(lifetime - refreshAhead, lifetime / 2)),
            user: pair.user)
    }

    private enum CodingKeys: String, CodingKey { case accessToken, refreshToken, accessTokenExpiresAt, refreshAfter, user }

    /// Reads what any version of this library wrote: a field it lacks takes a safe default
    /// rather than failing, since a failed read would look like a sign-out.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        refreshToken = try container.decode(String.self, forKey: .refreshToken)
        user = try container.decode(User.self, forKey: .user)
        // Unknown expiry: treat the access token as spent, so the first call refreshes.
        accessTokenExpiresAt = try container.decodeIfPresent(Date.self, forKey: .accessTokenExpiresAt) ?? .distantPast
        refreshAfter = try container.decodeIfPresent(Date.self, forKey: .refreshAfter) ?? accessTokenExpiresAt
    }
}
