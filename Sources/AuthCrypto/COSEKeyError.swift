import CBOR

/// Why a COSE key (RFC 9052 §7, RFC 9053) was refused as a passkey's public key.
public enum COSEKeyError: Error, Equatable, Sendable {
    /// The encoded key is not one well-formed CBOR item within the reader's limits.
    case malformedCBOR(CBORError)
    /// The item is not a map.
    case notAMap
    /// `kty` (label 1) missing or none of OKP (1), EC2 (2), RSA (3).
    case unsupportedKeyType
    /// `alg` (label 3) missing, or not the one algorithm accepted for the key type
    /// (ES256 for EC2, EdDSA for OKP, RS256 for RSA).
    case unsupportedAlgorithm
    /// `crv` (label -1) missing or not P-256 (1) for EC2, Ed25519 (6) for OKP.
    case unsupportedCurve
    /// A key parameter missing or not a byte string (a compressed EC2 `y` included).
    case missingParameter(label: Int64)
    /// An EC2 coordinate or an Ed25519 key that is not 32 bytes.
    case wrongCoordinateLength
    /// An EC2 point that is not on P-256 (or a coordinate not below the field prime).
    case pointNotOnCurve
    /// An RSA modulus shorter than 2048 bits.
    case rsaModulusTooShort
    /// An RSA modulus longer than 8192 bits: verifying with it would cost far more than
    /// any authenticator's key, for nothing.
    case rsaModulusTooLong
    /// An RSA public exponent that is even, below 3 or longer than 64 bits.
    case invalidRSAExponent
    /// OpenSSL refused to build a key from parameters that passed the checks above.
    case keyRejected
}
