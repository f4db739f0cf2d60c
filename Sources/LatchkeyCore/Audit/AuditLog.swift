/// One entry of the audit log.
public struct AuditEntry: Sendable, Equatable {
    public let at: Int64
    public let event: AuditEvent
    public let userID: String?
    public let address: String?
    public let sessionID: String?
    public let detail: String?
}

/// What the audit log records. Never a password, token or email: ids, an address, and
/// for failures a short reason.
public enum AuditEvent: String, Sendable, CaseIterable {
    case signup, login, loginFailed = "login_failed", throttled, refreshReused = "refresh_reused"
    case passwordChanged = "password_changed", passwordReset = "password_reset", emailChanged = "email_changed"
    case logout, logoutAll = "logout_all", sessionRevoked = "session_revoked", accountDeleted = "account_deleted"
    case adminUserDisabled = "admin_user_disabled", adminUserEnabled = "admin_user_enabled", adminUserDeleted = "admin_user_deleted"
    case adminSessionRevoked = "admin_session_revoked", adminSessionsRevoked = "admin_sessions_revoked", adminBackup = "admin_backup"
    case adminKeyRotated = "admin_key_rotated", adminKeyRetired = "admin_key_retired"
    /// An account written by `latchkey import`: detail `firebase`, or `firebase update` when
    /// a new run refreshed an account an earlier one imported.
    case adminUserImported = "admin_user_imported"
    case passkeyAdded = "passkey_added", passkeyRemoved = "passkey_removed"
    /// A passkey's signature counter did not move forward (`SignatureCounter`): detail the
    /// credential id, base64url. The sign-in went ahead.
    case passkeyCloneWarning = "passkey_clone_warning"
    case totpEnabled = "totp_enabled", totpRemoved = "totp_removed", recoveryCodesReplaced = "recovery_codes_replaced"
    case identityLinked = "identity_linked", identityUnlinked = "identity_unlinked"
    /// The provider revoked the identity (Apple's notification): detail the provider and
    /// the notification's type, e.g. `apple consent-revoked`.
    case identityRevoked = "identity_revoked"
    /// Apple's notice that the user stopped (`disabled`) or resumed (`enabled`) mail
    /// forwarding to their private relay address: detail `apple`. Nothing else changes:
    /// mail to the address still goes out, and Apple's relay drops it while disabled.
    case identityEmailDisabled = "identity_email_disabled", identityEmailEnabled = "identity_email_enabled"
}

/// The SQL of the audit log; callers append inside the transaction of what they record,
/// so an entry exists exactly when its change does.
enum AuditStore {
    static func append(
        _ event: AuditEvent, user: String? = nil, address: String? = nil, session: String? = nil, detail: String? = nil,
        now: Int64, on db: StoreConnection
    ) throws {
        try db.run(
            "INSERT INTO audit_log (at, event, user_id, address, session_id, detail) VALUES (?, ?, ?, ?, ?, ?)",
            now, event.rawValue, user, address, session, detail
        )
    }

    static func entries(user: String?, since: Int64, limit: Int, on db: StoreConnection) throws -> [AuditEntry] {
        let sql = user == nil
            ? "SELECT at, event, user_id, address, session_id, detail FROM audit_log WHERE at >= ? ORDER BY at, id LIMIT ?"
            : "SELECT at, event, user_id, address, session_id, detail FROM audit_log WHERE user_id = ? AND at >= ? ORDER BY at, id LIMIT ?"
        let row = { (row: StoreRow) in
            AuditEntry(
                at: row.int64(at: 0), event: AuditEvent(rawValue: row.text(at: 1) ?? "") ?? .login, userID: row.text(at: 2),
                address: row.text(at: 3), sessionID: row.text(at: 4), detail: row.text(at: 5)
            )
        }
        return try user.map { try db.query(sql, $0, since, limit, row: row) } ?? db.query(sql, since, limit, row: row)
    }
}

/// Reading the audit log (entries are written by the services that act).
public struct AuditLog: Sendable {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Entries since `since` (Unix seconds), oldest first, at most `limit`.
    public func entries(user: String? = nil, since: Int64 = 0, limit: Int = 100_000) throws -> [AuditEntry] {
        try database.read { db in try AuditStore.entries(user: user, since: since, limit: limit, on: db) }
    }

    /// Records `event` in a transaction of its own, without waiting for it (a login
    /// failure, an admin backup): the caller's answer does not wait on the write.
    func record(_ event: AuditEvent, user: String? = nil, address: String? = nil, session: String? = nil, detail: String? = nil) {
        database.submitWrite({ db in
            try AuditStore.append(event, user: user, address: address, session: session, detail: detail, now: UnixTime.now(), on: db)
        }, completion: { _ in })
    }
}
