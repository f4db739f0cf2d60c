/// A change to an account's credentials, address, profile, status or sessions. Each is one domain
/// operation (`AccountEvents.record`): in the transaction that makes the change it ends the
/// sessions the event ends, voids the links and device tokens it voids, writes its audit
/// entry and queues its notice; once committed, what it ended is heard on every instance
/// (`AccountEventBus`). The README's "Account events" table says the same, row by row.
public enum AccountEvent: Sendable, Equatable {
    /// Who ended one session: its owner (from another session, `DELETE /v1/auth/sessions`),
    /// an operator, or the server (a refresh token reused, a session no longer usable).
    public enum Revoker: Sendable, Equatable {
        case owner(fromSession: String)
        case operator_
        case refreshReused
        case unusable
    }

    /// `POST /v1/auth/password`: `newSession` is the one the answer signs in.
    case passwordChanged(newSession: String)
    case passwordReset
    /// An email change taking effect; the session that asked for it stays.
    case emailChanged(askingSession: String?)
    case loggedOut(session: String)
    case loggedOutEverywhere(fromSession: String)
    case sessionRevoked(String, by: Revoker)
    /// `latchkey sessions revoke --user`.
    case sessionsRevokedByOperator
    case disabled
    /// The account is gone (its rows went by cascade); `fromSession` nil for `latchkey users delete`.
    case deleted(fromSession: String?)
    /// A new display name or picture, or the address verified: ends nothing, but every
    /// instance's copy of the account (`SessionCache`) must go.
    case profileChanged
    /// A passkey or the second factor added or removed: ends nothing; an audit entry and a notice.
    case signInMethodChanged(SignInMethodChange)
    /// The provider told this server that the user ended the app's use of their identity
    /// (Apple's `consent-revoked` or `account-delete` notification, `reason`): every session
    /// ends, the identity is unlinked. No notice: the user did it themselves, at the provider.
    case identityRevokedByProvider(provider: String, reason: String)
    /// The account is gone because the identity its provider revoked was its only way in
    /// (call after its rows are gone, as for `deleted`).
    case deletedByProvider(provider: String)

    /// Whether the account's rows are gone.
    var deletesAccount: Bool {
        switch self {
        case .deleted, .deletedByProvider: true
        default: false
        }
    }

    /// The sessions the event ends.
    var ends: EndedAccess.Sessions {
        switch self {
        case .passwordChanged(let kept): .allBut(kept)
        case .emailChanged(let kept): .allBut(kept)
        case .passwordReset, .loggedOutEverywhere, .sessionsRevokedByOperator, .disabled, .deleted, .identityRevokedByProvider,
             .deletedByProvider: .allBut(nil)
        case .loggedOut(let session), .sessionRevoked(let session, _): .one(session)
        case .profileChanged, .signInMethodChanged: .noSession
        }
    }

    /// Whether every reset, verification and email-change link still outstanding dies
    /// (otherwise only the email-change links the ended session asked for).
    var voidsEveryLink: Bool {
        switch self {
        case .passwordChanged, .passwordReset, .emailChanged, .loggedOutEverywhere, .sessionsRevokedByOperator, .disabled, .deleted,
             .deletedByProvider: true
        case .loggedOut, .sessionRevoked, .profileChanged, .signInMethodChanged, .identityRevokedByProvider: false
        }
    }

    /// Whether the account's device tokens die (`DeviceToken`): with a new password.
    var voidsDeviceTokens: Bool {
        switch self {
        case .passwordChanged, .passwordReset: true
        default: false
        }
    }

    /// What the account's owner is told by mail, if anything.
    public enum Notice: Sendable, Equatable {
        case passwordChanged
        case signInMethodChanged(SignInMethodChange)
    }

    var notice: Notice? {
        switch self {
        case .passwordChanged, .passwordReset: .passwordChanged
        case .signInMethodChanged(let change): .signInMethodChanged(change)
        default: nil
        }
    }

    /// The audit entry: its event, and the session it names. Nil for a session the server
    /// tidied away because it could no longer be used.
    var audit: (event: AuditEvent, session: String?, detail: String?)? {
        switch self {
        case .passwordChanged(let session): (.passwordChanged, session, nil)
        case .passwordReset: (.passwordReset, nil, nil)
        case .emailChanged(let session): (.emailChanged, session, nil)
        case .loggedOut(let session): (.logout, session, nil)
        case .loggedOutEverywhere(let session): (.logoutAll, session, nil)
        case .sessionRevoked(let session, .owner(let from)): (.sessionRevoked, session, "by session \(from)")
        case .sessionRevoked(let session, .operator_): (.adminSessionRevoked, session, nil)
        case .sessionRevoked(let session, .refreshReused): (.refreshReused, session, nil)
        case .sessionRevoked(_, .unusable), .profileChanged: nil
        case .sessionsRevokedByOperator: (.adminSessionsRevoked, nil, nil)
        case .disabled: (.adminUserDisabled, nil, nil)
        case .deleted(let session?): (.accountDeleted, session, nil)
        case .deleted(nil): (.adminUserDeleted, nil, nil)
        case .signInMethodChanged(let change): (change.auditEvent, nil, change.auditDetail)
        case .identityRevokedByProvider(let provider, let reason): (.identityRevoked, nil, "\(provider) \(reason)")
        case .deletedByProvider(let provider): (.accountDeleted, nil, provider)
        }
    }
}
