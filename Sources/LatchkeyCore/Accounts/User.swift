/// An account as its owner sees it. Times are unix seconds.
public struct User: Sendable, Equatable {
    public let id: String
    /// Nil for an account made through a sign-in provider that shared no address.
    public let email: String?
    public let emailVerified: Bool
    /// Nil for an imported account whose name could not be claimed, until its owner
    /// chooses one (`PATCH /v1/users/me`).
    public let displayName: String?
    public let photoURL: String?
    public let createdAt: Int64
    public let disabled: Bool
}

extension User {
    /// What names the account to its owner in an authenticator app or a passkey prompt:
    /// the address, else the display name, else the id.
    var accountName: String { email ?? displayName ?? id }
}

/// What anyone signed in may see of another user.
public struct PublicProfile: Sendable, Equatable {
    public let id: String
    public let displayName: String?
    public let photoURL: String?

    public init(_ user: User) {
        id = user.id
        displayName = user.displayName
        photoURL = user.photoURL
    }
}
