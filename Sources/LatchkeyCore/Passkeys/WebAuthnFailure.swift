/// Why a registration or an assertion was refused: the `reason` of `WEBAUTHN_INVALID`.
public enum WebAuthnFailure: String, Error, Sendable, Equatable {
    /// Not the JSON form, bad base64url, bad CBOR, authenticator data that does not hold together.
    case malformed = "MALFORMED"
    /// `clientDataJSON.type` is not `webauthn.create` (registration) or `webauthn.get` (sign-in).
    case type = "TYPE"
    /// `clientDataJSON.origin` is not one of the relying party's origins.
    case origin = "ORIGIN"
    /// The authenticator data's RP ID hash is not SHA-256 of the RP ID.
    case rpID = "RP_ID"
    /// The UP flag is not set.
    case userPresence = "USER_PRESENCE"
    /// The UV flag is not set.
    case userVerification = "USER_VERIFICATION"
    /// A key type or algorithm outside ES256, EdDSA and RS256.
    case algorithm = "ALGORITHM"
    /// The signature does not verify with the credential's key.
    case signature = "SIGNATURE"
    /// A `packed` statement that does not verify, or a format this server does not read.
    case attestation = "ATTESTATION"
}
