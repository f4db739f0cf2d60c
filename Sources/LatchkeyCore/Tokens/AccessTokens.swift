/// A signed-in pair: what every endpoint that signs a user in returns.
public struct TokenPair: Sendable {
    public let accessToken: String
    public let expiresIn: Int64
    public let refreshToken: String
    public let user: User
    /// With every pair a password produced (signup, login, password change; `DeviceToken`).
    public var deviceToken: String? = nil
}

/// Whose request this is, once its bearer token passed every check.
public struct Authenticated: Sendable, Equatable {
    public let userID: String
    public let sessionID: String
    /// The caller's account as read with the session check, so handlers need no second read.
    public let user: User
}

/// Why a bearer token was refused (all 401).
public enum AccessError: Error, Sendable, Equatable {
    case unauthenticated
    case invalidToken
    case tokenExpired
    case sessionRevoked
}
