/// Why a signature was refused. A signature that is well-formed but wrong (tampered, made
/// by another key, over other bytes) is `mismatch`: OpenSSL cannot tell those apart, and
/// neither should a caller.
public enum SignatureError: Error, Equatable, Sendable {
    /// Not the encoding its algorithm uses: ES256 not strict DER (at most 72 bytes),
    /// Ed25519 not 64 bytes, RS256 not the modulus's length.
    case malformedSignature
    /// The signature does not verify over the message with this key.
    case mismatch
    /// The statement names an algorithm the certificate's key cannot sign with.
    case algorithmMismatch
}
