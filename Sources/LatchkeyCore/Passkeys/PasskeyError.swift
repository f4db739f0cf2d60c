/// Failures of the passkey area; `LatchkeyAPI` maps each to its contract status and code.
public enum PasskeyError: Error, Sendable, Equatable {
    /// The client data names no live challenge of this ceremony: unknown, used, expired,
    /// made for the other ceremony, or (registration) made for another account.
    case challengeInvalid
    /// A registration or assertion the relying party's checks refuse.
    case invalid(WebAuthnFailure)
    /// The credential id is registered already, to this account or another.
    case exists
    /// A sign-in with a credential no account holds (never registered, or deleted), or one
    /// whose user handle names another account.
    case unknownCredential
    /// Not one of the caller's passkeys.
    case notFound
    /// Deleting it would leave the account no way to sign in.
    case lastSignInMethod
    /// A name outside the rules (`PasskeyName`); the words say which.
    case nameInvalid(String)
}
