/// One public key of a JSON Web Key Set (RFC 7517) that an OpenID provider publishes and
/// signs its ID tokens with: P-256 for ES256 or RSA for RS256, with its `kid`. Built into
/// an OpenSSL key once, under the same limits as a passkey's key (`COSEKey`), so each
/// token only verifies.
public struct JSONWebKey: Sendable {
    public let keyID: String?
    /// ES256 or RS256.
    public let algorithm: COSEAlgorithm
    let key: EVPPublicKey

    /// `kty` EC, `crv` P-256: `x` and `y`, 32 bytes each (base64url-decoded).
    public static func p256(x: [UInt8], y: [UInt8], keyID: String?) throws(COSEKeyError) -> JSONWebKey {
        JSONWebKey(keyID: keyID, algorithm: .es256, key: try COSEKey.p256Key(x: x, y: y))
    }

    /// `kty` RSA: `n` and `e` (base64url-decoded), n of 2048 to 8192 bits.
    public static func rsa(modulus: [UInt8], exponent: [UInt8], keyID: String?) throws(COSEKeyError) -> JSONWebKey {
        JSONWebKey(keyID: keyID, algorithm: .rs256, key: try COSEKey.rsaKey(modulus: modulus, exponent: exponent))
    }
}
