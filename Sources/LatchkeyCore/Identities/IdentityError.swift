/// Why an ID token was refused: the `reason` of `IDP_TOKEN_INVALID`.
public enum IDTokenFailure: String, Error, Sendable, Equatable {
    /// Not a JWT, or claims that are not the JSON an ID token carries (no `sub`, no `exp`).
    case malformed = "MALFORMED"
    /// Not signed by a key of the provider's JWKS, or `alg` not RS256 or ES256.
    case signature = "SIGNATURE"
    case issuer = "ISSUER"
    /// `aud` names none of the provider's client ids.
    case audience = "AUDIENCE"
    /// `exp` passed, or `iat` / `nbf` in the future, beyond the leeway.
    case expired = "EXPIRED"
    /// The token's `nonce` and the body's disagree, or only one of them has one.
    case nonce = "NONCE"
}

/// Failures of sign-in providers and identities; `LatchkeyAPI` maps each to its status.
public enum IdentityError: Error, Sendable, Equatable {
    /// No provider of that name is configured.
    case providerNotFound
    case tokenInvalid(IDTokenFailure)
    /// The token's address belongs to an account it may not be linked to (one side has not
    /// verified it).
    case accountExists
    /// The provider's keys could not be fetched and none are cached; `why` is for the log.
    case providerUnavailable(why: String)
    /// Linking: the identity belongs to another account, or the caller already holds
    /// another identity of this provider.
    case identityInUse(otherAccount: Bool)
    /// Unlinking: the caller holds no identity of this provider.
    case notFound
    /// Unlinking it would leave the account no way to sign in.
    case lastSignInMethod
    /// An Apple server-to-server notification that is not Apple's or does not check out
    /// (400, not 401: the sender is a server, not a signed-in user).
    case notificationInvalid(IDTokenFailure)
}
