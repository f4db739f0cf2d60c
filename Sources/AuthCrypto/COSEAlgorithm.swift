/// The COSE algorithms (RFC 9053; IANA "COSE Algorithms") a passkey may sign with: what
/// `pubKeyCredParams` offers, a credential public key's `alg` (label 3) and a packed
/// attestation statement's `alg` hold.
public enum COSEAlgorithm: Int64, Sendable, CaseIterable {
    /// ECDSA over P-256 with SHA-256; WebAuthn sends the signature DER-encoded.
    case es256 = -7
    /// Pure Ed25519 (RFC 8032), the message signed as it is.
    case eddsa = -8
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = -257
}
