/// The set of keys tokens are checked against. The first key signs; all of them verify,
/// so a new key can be put first while tokens signed by the old one stay valid until
/// they expire (rotation without logging anyone out).
///
/// An immutable value, read inline on the event loop for every authenticated request:
/// no actor hop and no lock. Rotating means building a new `Keyring` and swapping it in.
public struct Keyring: Sendable {
    let keys: [SigningKey]

    public init(keys: [SigningKey]) throws(KeyringError) {
        guard !keys.isEmpty else { throw .empty }
        guard Set(keys.map(\.id)).count == keys.count else { throw .duplicateKeyID }
        self.keys = keys
    }

    /// The key new tokens are signed with.
    var signingKey: SigningKey { keys[0] }

    /// The `kid` new tokens carry.
    public var signingKeyID: String { signingKey.id }

    /// Every id that verifies, signing key first.
    public var keyIDs: [String] { keys.map(\.id) }

    /// Exact match only: an unknown id is refused, never mapped to a default key.
    func key(withID id: String) -> SigningKey? {
        keys.first { $0.id == id }
    }
}

extension Keyring: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "Keyring(keyIDs: \(keyIDs))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["keyIDs": keyIDs]) }
}

/// Why a keyring could not be built. Carries no key material.
public enum KeyringError: Error, Equatable, Sendable {
    case empty
    /// Two keys with one id would make `kid` ambiguous.
    case duplicateKeyID
}
