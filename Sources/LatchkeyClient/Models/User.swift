import Foundation

/// The signed-in person's own account (docs/api.md, "User"): only its owner sees it.
public struct User: Codable, Sendable, Hashable, Identifiable {
    public let id: String
    /// Nil for an account made through a sign-in provider (Apple, Google, …) that shared
    /// no address.
    public let email: String?
    public let emailVerified: Bool
    /// Unique whatever its case; the spelling is the user's own. Nil for an account
    /// imported from Firebase whose name could not be claimed: it picks one with
    /// `updateProfile(displayName:)`.
    public let displayName: String?
    /// Public and cacheable; nil when the user has no picture.
    public let photoURL: URL?
    public let createdAt: Date

    public init(id: String, email: String?, emailVerified: Bool, displayName: String?, photoURL: URL?, createdAt: Date) {
        self.id = id
        self.email = email
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.photoURL = photoURL
        self.createdAt = createdAt
    }
}

/// What anyone signed in may see of another user (`GET /v1/users/{id}`).
public struct PublicProfile: Codable, Sendable, Hashable, Identifiable {
    public let id: String
    /// Nil for an imported account that has not chosen one yet.
    public let displayName: String?
    public let photoURL: URL?

    public init(id: String, displayName: String?, photoURL: URL?) {
        self.id = id
        self.displayName = displayName
        self.photoURL = photoURL
    }
}
