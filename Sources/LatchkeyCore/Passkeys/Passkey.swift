import AuthCrypto

/// A passkey as its owner sees it in the list: the credential's id, the name its owner
/// gave it, when it was made and last used, and whether it is synced (backed up).
public struct Passkey: Sendable, Equatable {
    public let credentialID: [UInt8]
    public let name: String
    public let createdAt: Int64
    public let lastUsedAt: Int64?
    public let backedUp: Bool

    /// The credential id as it travels in JSON and paths: base64url without padding.
    public var id: String { Base64URL.encode(credentialID) }
}
