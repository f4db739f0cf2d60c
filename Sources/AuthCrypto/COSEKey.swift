import CBOR

/// A passkey's credential public key: a COSE key (RFC 9052 §7) of one of the three types
/// WebAuthn relying parties accept, checked and built into an OpenSSL key once, so each
/// sign-in only verifies.
///
/// Accepted: EC2 (kty 2) on P-256 (crv 1) with 32-byte x and y, alg ES256 (-7); RSA (kty 3)
/// with n of 2048 to 8192 bits and e, alg RS256 (-257); OKP (kty 1) Ed25519 (crv 6) with a
/// 32-byte x, alg EdDSA (-8). Other parameters (kid, key_ops, ...) are ignored.
public struct COSEKey: Sendable {
    public let algorithm: COSEAlgorithm
    let key: EVPPublicKey

    /// COSE labels (RFC 9052 §7.1, RFC 9053 §7).
    enum Label {
        static let keyType: Int64 = 1
        static let algorithm: Int64 = 3
        static let curve: Int64 = -1
        static let x: Int64 = -2
        static let y: Int64 = -3
        static let modulus: Int64 = -1
        static let exponent: Int64 = -2
    }

    /// The key from its encoding as stored (the exact bytes cut out of authenticator data).
    public init(encoded: some Collection<UInt8>) throws(COSEKeyError) {
        let value: CBOR
        do throws(CBORError) {
            value = try CBORReader().read(encoded)
        } catch {
            throw .malformedCBOR(error)
        }
        try self.init(value)
    }

    public init(_ value: CBOR) throws(COSEKeyError) {
        guard let map = value.map else { throw .notAMap }
        try self.init(map)
    }

    public init(_ map: CBORMap) throws(COSEKeyError) {
        let algorithm = map[Label.algorithm]?.integer
        switch map[Label.keyType]?.integer {
        case 2?:
            guard algorithm == COSEAlgorithm.es256.rawValue else { throw .unsupportedAlgorithm }
            self.init(algorithm: .es256, key: try Self.ec2Key(map))
        case 3?:
            guard algorithm == COSEAlgorithm.rs256.rawValue else { throw .unsupportedAlgorithm }
            self.init(algorithm: .rs256, key: try Self.rsaKey(map))
        case 1?:
            guard algorithm == COSEAlgorithm.eddsa.rawValue else { throw .unsupportedAlgorithm }
            self.init(algorithm: .eddsa, key: try Self.ed25519Key(map))
        default:
            throw .unsupportedKeyType
        }
    }

    private init(algorithm: COSEAlgorithm, key: EVPPublicKey) {
        self.algorithm = algorithm
        self.key = key
    }

    /// Checks a WebAuthn signature (over authenticator data ‖ SHA-256 of client data) as
    /// this key's algorithm signs.
    public func verify(signature: [UInt8], over message: [UInt8]) throws(SignatureError) {
        try key.verify(algorithm, signature: signature, message: message)
    }

    static func bytes(_ map: CBORMap, _ label: Int64) throws(COSEKeyError) -> [UInt8] {
        guard let bytes = map[label]?.bytes else { throw .missingParameter(label: label) }
        return bytes
    }
}
