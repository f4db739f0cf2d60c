/// A provider identity linked to an account. Times are unix seconds.
public struct Identity: Sendable, Equatable {
    public let provider: String
    /// The provider's `sub`.
    public let subject: String
    /// The address the provider's token named when it was linked, if any.
    public let email: String?
    public let createdAt: Int64
}

/// `GET /v1/auth/identities`: the caller's identities, and whether a password signs in too.
public struct IdentityList: Sendable {
    public let identities: [Identity]
    public let hasPassword: Bool
}
