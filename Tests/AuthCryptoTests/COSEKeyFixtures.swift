import AuthCrypto
import TestSupport
import CBOR

/// What a WebAuthn signature covers: authenticator data (37 bytes at least: RP ID hash,
/// flags, counter) followed by the SHA-256 of the client data JSON.
let signedMessage: [UInt8] = SHA256.hash(Array("example.com".utf8)) + [0x05, 0, 0, 0, 7]
    + SHA256.hash(Array(#"{"type":"webauthn.get","challenge":"abc","origin":"https://example.com"}"#.utf8))

/// A P-256 key made by `openssl genpkey` and its COSE form.
struct P256Fixture {
    let key: String
    let x: [UInt8]
    let y: [UInt8]

    init(_ tool: OpenSSLTool, name: String = "p256.pem") throws {
        key = tool.path(name)
        try tool.generateKey(key, ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"])
        // A P-256 SubjectPublicKeyInfo ends with the uncompressed point 04 ‖ x ‖ y.
        let point = try tool.publicKeyDER(key).suffix(65)
        precondition(point.first == 0x04, "not an uncompressed P-256 point")
        x = Array(point.dropFirst().prefix(32))
        y = Array(point.suffix(32))
    }

    var cose: CBORMap {
        coseKey([(1, .integer(2)), (3, .integer(-7)), (-1, .integer(1)), (-2, .bytes(x)), (-3, .bytes(y))])
    }
}

/// An RSA key made by `openssl genpkey` and its COSE form (e = 65537).
struct RSAFixture {
    let key: String
    let modulus: [UInt8]

    init(_ tool: OpenSSLTool, bits: Int, name: String = "rsa.pem") throws {
        key = tool.path(name)
        try tool.generateKey(key, ["-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:\(bits)"])
        modulus = try tool.rsaModulus(key)
    }

    var cose: CBORMap {
        coseKey([(1, .integer(3)), (3, .integer(-257)), (-1, .bytes(modulus)), (-2, .bytes([0x01, 0x00, 0x01]))])
    }
}

/// An Ed25519 key made by `openssl genpkey` and its COSE form.
struct Ed25519Fixture {
    let key: String
    let x: [UInt8]

    init(_ tool: OpenSSLTool, name: String = "ed25519.pem") throws {
        key = tool.path(name)
        try tool.generateKey(key, ["-algorithm", "ED25519"])
        // An Ed25519 SubjectPublicKeyInfo ends with the 32-byte key.
        x = Array(try tool.publicKeyDER(key).suffix(32))
    }

    var cose: CBORMap { okpKey(x) }
}

func okpKey(_ x: [UInt8]) -> CBORMap {
    coseKey([(1, .integer(1)), (3, .integer(-8)), (-1, .integer(6)), (-2, .bytes(x))])
}

/// The same signature with one bit of its last byte flipped.
func tampered(_ signature: [UInt8]) -> [UInt8] {
    var copy = signature
    copy[copy.count - 1] ^= 0x01
    return copy
}
