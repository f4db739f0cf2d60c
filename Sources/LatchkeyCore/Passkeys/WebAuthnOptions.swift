import AuthCrypto

/// What `navigator.credentials.create` needs to make a passkey for an account
/// (`PublicKeyCredentialCreationOptionsJSON`, rendered by the API).
public struct CreationOptions: Sendable {
    public let challenge: [UInt8]
    public let party: RelyingParty
    /// The account's opaque user handle: neither its id nor its address.
    public let userHandle: [UInt8]
    public let userName: String
    public let userDisplayName: String
    /// The account's passkeys, so an authenticator that holds one already says so.
    public let excludedCredentials: [[UInt8]]
    /// The COSE algorithm identifiers offered, in order: ES256 (-7), EdDSA (-8), RS256 (-257),
    /// the three keys `COSEKey` verifies.
    public static let algorithms: [Int64] = COSEAlgorithm.allCases.map(\.rawValue)
}

/// What `navigator.credentials.get` needs for a sign-in with a discoverable passkey
/// (`PublicKeyCredentialRequestOptionsJSON`, rendered by the API).
public struct RequestOptions: Sendable {
    public let challenge: [UInt8]
    public let rpID: String
}

/// The binary members as the JSON forms carry them: base64url without padding.
extension CreationOptions {
    public var encodedChallenge: String { Base64URL.encode(challenge) }
    public var encodedUserHandle: String { Base64URL.encode(userHandle) }
    public var encodedExcludedCredentials: [String] { excludedCredentials.map(Base64URL.encode) }
}

extension RequestOptions {
    public var encodedChallenge: String { Base64URL.encode(challenge) }
}
