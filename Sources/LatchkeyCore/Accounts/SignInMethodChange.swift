/// A passkey or the second factor added or removed (`AccountEvent.signInMethodChanged`):
/// it ends no session, and the account's owner is told by mail, so a change they did not
/// make does not go unnoticed.
public enum SignInMethodChange: Sendable, Equatable {
    case passkeyAdded(name: String)
    case passkeyRemoved(name: String)
    case totpEnabled
    case totpRemoved
    /// New recovery codes: the old ones are void.
    case recoveryCodesReplaced
    /// A sign-in provider's identity linked (`POST /v1/auth/identities/{provider}`, or the
    /// first provider sign-in to an account with the same verified address) or unlinked.
    case identityLinked(provider: String)
    case identityUnlinked(provider: String)

    var auditEvent: AuditEvent {
        switch self {
        case .passkeyAdded: .passkeyAdded
        case .passkeyRemoved: .passkeyRemoved
        case .totpEnabled: .totpEnabled
        case .totpRemoved: .totpRemoved
        case .recoveryCodesReplaced: .recoveryCodesReplaced
        case .identityLinked: .identityLinked
        case .identityUnlinked: .identityUnlinked
        }
    }

    /// The audit entry's detail: the provider of an identity.
    var auditDetail: String? {
        switch self {
        case .identityLinked(let provider), .identityUnlinked(let provider): provider
        default: nil
        }
    }

    /// The notice's `{{change}}`: one sentence.
    var sentence: String {
        switch self {
        case .passkeyAdded(let name): "A passkey named “\(name)” was added to your account."
        case .passkeyRemoved(let name): "The passkey named “\(name)” was removed from your account."
        case .totpEnabled: "Two-factor sign-in with an authenticator app was turned on for your account."
        case .totpRemoved: "Two-factor sign-in with an authenticator app was turned off for your account."
        case .recoveryCodesReplaced: "New recovery codes were made for your account; the old ones no longer work."
        case .identityLinked(let provider): "Signing in with \(provider) was added to your account."
        case .identityUnlinked(let provider): "Signing in with \(provider) was removed from your account."
        }
    }
}
