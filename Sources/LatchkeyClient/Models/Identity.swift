import Foundation

/// A sign-in provider's identity linked to the signed-in account (`Latchkey.identities()`).
public struct Identity: Decodable, Sendable, Hashable {
    /// `apple`, `google`, or the name of an OpenID Connect provider the server configures.
    public let provider: String
    /// The provider's id for the user (`sub`).
    public let subject: String
    /// The address the provider named when it was linked, if it shared one.
    public let email: String?
    public let createdAt: Date
}

/// The account's identities, and whether a password signs it in too.
public struct IdentityList: Decodable, Sendable, Hashable {
    public let identities: [Identity]
    public let hasPassword: Bool
}
