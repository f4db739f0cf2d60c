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
    /// Where the API keeps what it derives from `user` while this instance holds the copy
    /// it came from (`SessionCache`); nil when the check read the store.
    public let userMemo: UserMemo?

    init(userID: String, sessionID: String, user: User, userMemo: UserMemo? = nil) {
        self.userID = userID
        self.sessionID = sessionID
        self.user = user
        self.userMemo = userMemo
    }

    /// The memo caches `user`; it is not part of who the caller is.
    public static func == (left: Authenticated, right: Authenticated) -> Bool {
        left.userID == right.userID && left.sessionID == right.sessionID && left.user == right.user
    }
}

/// Why a bearer token was refused (all 401).
public enum AccessError: Error, Sendable, Equatable {
    case unauthenticated
    case invalidToken
    case tokenExpired
    case sessionRevoked
}
