/// A signed-in device: one refresh-token chain. Times are unix seconds.
public struct Session: Sendable, Equatable {
    public let id: String
    public let userID: String
    public let userAgent: String?
    public let createdAt: Int64
    public let lastUsedAt: Int64
    public let revokedAt: Int64?

    public func isActive(now: Int64, idleTimeout: Int64) -> Bool {
        revokedAt == nil && now - lastUsedAt <= idleTimeout
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
