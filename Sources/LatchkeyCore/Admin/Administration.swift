import AuthCrypto
/// What the admin commands do to accounts and sessions, beside a running server: they
/// write through this process's own writer (SQLite serialises it with the server's), and
/// the server sees the result at once in its per-request session check. Disabling,
/// deleting and revoking are account events (`AccountEvents`): the running server hears
/// them through the database (SQLite's `account_events` tail, PostgreSQL's NOTIFY) within
/// a fraction of a second, closes the ended sessions' streams and tells watchers.
public struct Administration: Sendable {
    let database: Database
    let pictures: ProfilePictures
    let events: AccountEvents

    public init(database: Database, pictures: ProfilePictures, policy: AccountsPolicy) {
        self.database = database
        self.pictures = pictures
        events = AccountEvents(bus: AccountEventBus(), policy: policy, mail: nil)
    }

    public func users() throws -> [User] {
        try database.read { db in
            try db.query("SELECT \(AccountStore.userColumns) FROM users ORDER BY created_at, \(db.dialect.insertionOrder)") { AccountStore.makeUser($0, from: 0) }
        }
    }

    /// The user `reference` names: an id, or else an email (compared as signup stores it).
    public func user(_ reference: String) throws -> User? {
        try database.read { db in
            if let user = try AccountStore.user(id: reference, on: db) { return user }
            guard case .success(let email) = EmailRules.normalize(reference) else { return nil }
            return try AccountStore.credentials(emailKey: email.key, on: db)?.user
        }
    }

    /// Disabling ends every session (the user goes offline with them); enabling lets the
    /// user log in again.
    public func setDisabled(_ disabled: Bool, _ user: User) async throws -> User {
        let events = events
        return try await database.write { db in
            let now = UnixTime.now()
            try db.run("UPDATE users SET disabled = ?, updated_at = ? WHERE id = ?", disabled, now, user.id)
            if disabled {
                _ = try events.record(.disabled, userID: user.id, now: now, on: db)
            } else {
                try AuditStore.append(.adminUserEnabled, user: user.id, now: now, on: db)
            }
            guard let changed = try AccountStore.user(id: user.id, on: db) else { throw AccountError.userNotFound }
            return changed
        }
    }

    /// Account, claim, presence and sessions go in one statement (cascade), then its pictures.
    public func delete(_ user: User) async throws {
        let events = events
        _ = try await database.write { db in
            try AccountStore.deleteUser(user.id, on: db)
            return try events.record(.deleted(fromSession: nil), userID: user.id, now: UnixTime.now(), on: db)
        }
        pictures.removeAll(of: user.id)
    }

    /// Every session of the user not yet revoked, oldest first (expired ones included:
    /// an operator may want to see them).
    public func sessions(of user: User) throws -> [Session] {
        try database.read { db in try SessionStore.unrevoked(of: user.id, on: db) }
    }

    /// False when no unrevoked session has that id.
    public func revoke(session id: String) async throws -> Bool {
        let events = events
        return try await database.write { db in
            guard let session = try SessionStore.session(id: id, on: db), session.revokedAt == nil else { return false }
            _ = try events.record(.sessionRevoked(id, by: .operator_), userID: session.userID, now: UnixTime.now(), on: db)
            return true
        }
    }

    /// The audit log's entries, of one user (an id, for a deleted account too) or all.
    public func audit(user: String?, since: Int64) throws -> [AuditEntry] {
        try AuditLog(database: database).entries(user: user, since: since)
    }

    /// A backup is an admin action like the others: the log says when and where to.
    public func recordBackup(to path: String) async throws {
        try await database.write { db in try AuditStore.append(.adminBackup, detail: path, now: UnixTime.now(), on: db) }
    }

    public func revokeSessions(of user: User) async throws {
        let events = events
        _ = try await database.write { db in
            try events.record(.sessionsRevokedByOperator, userID: user.id, now: UnixTime.now(), on: db)
        }
    }

    /// A new signing key in front of the data directory's keyring; the running server
    /// signs with it within seconds, and tokens of the older keys stay valid.
    public func rotateSigningKey(inDirectory directory: String, algorithm: AccessTokenAlgorithm) async throws -> SigningKeyFile.Entry {
        let entry = try SigningKeyFile.rotate(inDirectory: directory, algorithm: algorithm)
        try await database.write { db in try AuditStore.append(.adminKeyRotated, detail: entry.id, now: UnixTime.now(), on: db) }
        return entry
    }

    /// Removes a key that no longer signs: within seconds the running server refuses the
    /// tokens it signed (their clients refresh and get tokens of the signing key). A P-256
    /// key's public half stays published for `publishedFor` seconds (the token lifetime).
    public func retireSigningKey(_ id: String, inDirectory directory: String, algorithm: AccessTokenAlgorithm, publishedFor lifetime: Int64) async throws {
        try SigningKeyFile.retire(id, inDirectory: directory, algorithm: algorithm, publishedFor: lifetime)
        try await database.write { db in try AuditStore.append(.adminKeyRetired, detail: id, now: UnixTime.now(), on: db) }
    }
}
