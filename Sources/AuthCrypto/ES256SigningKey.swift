/// One P-256 key of the keyring and the id (`kid`) its tokens and its JWKS entry name it
/// by: with `accessTokenAlgorithm` ES256, access tokens anyone can check with the public
/// half, which the server publishes, without being able to mint one.
public struct ES256SigningKey: Sendable {
    public let id: String
    public let privateKey: P256PrivateKey
    /// The base64url JOSE header of every token this key signs, computed once, as
    /// `SigningKey.encodedHeader` is, so verification matches it byte for byte.
    let encodedHeader: [UInt8]

    /// The same id rules as an HMAC key's (`SigningKey.maximumIDLength`, `A-Z a-z 0-9 - _ .`).
    public init(id: String, privateKey: P256PrivateKey) throws(SigningKeyError) {
        guard SigningKey.isValidID(id) else { throw .invalidID }
        self.id = id
        self.privateKey = privateKey
        encodedHeader = JWT.es256Header(keyID: id)
    }
}

extension ES256SigningKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "ES256SigningKey(id: \(id), privateKey: <redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["id": id, "privateKey": "<redacted>"]) }
}

/// The algorithm new access tokens are signed with (`accessTokenAlgorithm`). Tokens of
/// either verify while their key is in the keyring, so switching logs nobody out.
public enum AccessTokenAlgorithm: String, Sendable, CaseIterable {
    case hs256 = "HS256"
    case es256 = "ES256"
}
