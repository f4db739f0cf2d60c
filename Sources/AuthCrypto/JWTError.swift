/// Why a token was refused. Deliberately coarse and free of token or key bytes: callers
/// log the case and answer 401 whatever it is.
public enum JWTError: Error, Equatable, Sendable {
    /// Not three base64url segments, too long, or a header/payload that is not the JSON
    /// we expect.
    case malformed
    /// `alg` is anything but `HS256` or `ES256` (including `none`), or the header has `crit`.
    case unsupportedAlgorithm
    /// No `kid`, or a `kid` that is not among the keyring's keys of the header's `alg`.
    case unknownKey
    case badSignature
    case expired
    /// No `exp` claim, or one that is not an integer: every token must expire.
    case missingExpiry
}
