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

    var auditEvent: AuditEvent {
        switch self {
        case .passkeyAdded: .passkeyAdded
        case .passkeyRemoved: .passkeyRemoved
        case .totpEnabled: .totpEnabled
        case .totpRemoved: .totpRemoved
        case .recoveryCodesReplaced: .recoveryCodesReplaced
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
        }
    }
}
