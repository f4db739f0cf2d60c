/// The set of keys tokens are checked against: HMAC keys (HS256) and P-256 keys (ES256).
/// The first key of the configured algorithm signs; all of them verify, so a new key can
/// be put first while tokens signed by the old one stay valid until they expire (rotation
/// without logging anyone out), and tokens of the other algorithm stay valid after a switch.
///
/// An immutable value, read inline on the event loop for every authenticated request:
/// no actor hop and no lock. Rotating means building a new `Keyring` and swapping it in.
public struct Keyring: Sendable {
    let keys: [SigningKey]
    let es256Keys: [ES256SigningKey]
    /// What new tokens are signed with.
    public let algorithm: AccessTokenAlgorithm

    public init(keys: [SigningKey], es256Keys: [ES256SigningKey] = [], signingWith algorithm: AccessTokenAlgorithm = .hs256) throws(KeyringError) {
        guard algorithm == .hs256 ? !keys.isEmpty : !es256Keys.isEmpty else { throw .empty }
        let ids = keys.map(\.id) + es256Keys.map(\.id)
        guard Set(ids).count == ids.count else { throw .duplicateKeyID }
        self.keys = keys
        self.es256Keys = es256Keys
        self.algorithm = algorithm
    }

    /// The HMAC key HS256 tokens are signed with.
    var signingKey: SigningKey { keys[0] }

    /// The `kid` new tokens carry.
    public var signingKeyID: String {
        switch algorithm {
        case .hs256: keys[0].id
        case .es256: es256Keys[0].id
        }
    }

    /// Every id that verifies, the signing key first.
    public var keyIDs: [String] {
        let hmac = keys.map(\.id)
        let p256 = es256Keys.map(\.id)
        return algorithm == .hs256 ? hmac + p256 : p256 + hmac
    }

    /// The P-256 keys, signing key first: their public halves are what a JWKS publishes.
    public var publicKeys: [ES256SigningKey] { es256Keys }

    /// Exact match of the bytes only: an unknown id is refused, never mapped to a default key.
    func key(withID id: String) -> SigningKey? {
        keys.first { $0.id.utf8.elementsEqual(id.utf8) }
    }

    func es256Key(withID id: String) -> ES256SigningKey? {
        es256Keys.first { $0.id.utf8.elementsEqual(id.utf8) }
    }
}

extension Keyring: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "Keyring(algorithm: \(algorithm.rawValue), keyIDs: \(keyIDs))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["algorithm": algorithm.rawValue, "keyIDs": keyIDs]) }
}

/// Why a keyring could not be built. Carries no key material.
public enum KeyringError: Error, Equatable, Sendable {
    /// No key of the algorithm that signs.
    case empty
    /// Two keys with one id would make `kid` ambiguous.
    case duplicateKeyID
}
