/// A signed-in device: one refresh-token chain. Times are unix seconds.
public struct Session: Sendable, Equatable {
    public let id: String
    public let userID: String
    public let userAgent: String?
    public let createdAt: Int64
    public let lastUsedAt: Int64
    public let revokedAt: Int64?
    /// How it was signed in (the access token's `amr`).
    public let methods: SignInMethods

    /// Not revoked, used within the idle timeout, and younger than the maximum lifetime
    /// whatever its use.
    public func isActive(now: Int64, policy: AccountsPolicy) -> Bool {
        revokedAt == nil && now - lastUsedAt <= policy.sessionIdleTimeout && now - createdAt <= policy.sessionMaxLifetime
    }
}

/// Failures of sessions and refresh rotation.
public enum SessionError: Error, Sendable, Equatable {
    case invalidRefreshToken
    /// A rotated token came back after the grace: the whole session is revoked.
    case refreshTokenReused
    /// Not one of the caller's active sessions.
    case notFound
}
