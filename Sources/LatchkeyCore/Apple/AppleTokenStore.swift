/// The SQL of Apple's refresh tokens and the revocations owed to Apple (migrations/0023).
/// Tokens stay sealed here (`AppleRefreshTokenSeal`); moving one into the queue copies
/// its box as it is, so no write needs the key but the sender's.
enum AppleTokenStore {
    /// A revocation taken for sending.
    typealias Claimed = (id: Int64, userID: String, clientID: String, attempts: Int, createdAt: Int64, sealedToken: [UInt8]?)

    /// Keeps `sealed` as the account's token for `clientID`; a token it replaces is queued
    /// for revocation in the same transaction, so an account holds one live token per client.
    static func store(_ sealed: [UInt8], userID: String, clientID: String, now: Int64, on db: StoreConnection) throws {
        try queueRevocations(userID: userID, clientID: clientID, now: now, on: db)
        try db.run(
            "INSERT INTO apple_refresh_tokens (user_id, client_id, sealed_token, created_at) VALUES (?, ?, ?, ?)",
            userID, clientID, sealed, now
        )
    }

    /// Queues a sealed token whose account no longer exists (deleted while Apple was asked).
    static func queueRevocation(_ sealed: [UInt8], userID: String, clientID: String, now: Int64, on db: StoreConnection) throws {
        try db.run(
            "INSERT INTO apple_revocations (user_id, client_id, sealed_token, created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?)",
            userID, clientID, sealed, now, now
        )
    }

    /// Moves the account's tokens (of one client id, or all) into the revocation queue, due
    /// at once. Called in the transaction that deletes the account, before the delete.
    static func queueRevocations(userID: String, clientID: String? = nil, now: Int64, on db: StoreConnection) throws {
        if let clientID {
            try db.run(
                """
                INSERT INTO apple_revocations (user_id, client_id, sealed_token, created_at, next_attempt_at)
                SELECT user_id, client_id, sealed_token, ?, ? FROM apple_refresh_tokens WHERE user_id = ? AND client_id = ?
                """,
                now, now, userID, clientID
            )
            try db.run("DELETE FROM apple_refresh_tokens WHERE user_id = ? AND client_id = ?", userID, clientID)
        } else {
            try db.run(
                """
                INSERT INTO apple_revocations (user_id, client_id, sealed_token, created_at, next_attempt_at)
                SELECT user_id, client_id, sealed_token, ?, ? FROM apple_refresh_tokens WHERE user_id = ?
                """,
                now, now, userID
            )
            try db.run("DELETE FROM apple_refresh_tokens WHERE user_id = ?", userID)
        }
    }

    /// Forgets the account's tokens without revoking them: Apple told us the user already
    /// ended the app's authorization (a server-to-server notification).
    static func drop(userID: String, on db: StoreConnection) throws {
        try db.run("DELETE FROM apple_refresh_tokens WHERE user_id = ?", userID)
    }

    /// Whether any revocation is due by `now` (a read: most polls find nothing).
    static func anyDue(now: Int64, on db: StoreConnection) throws -> Bool {
        try db.queryOne(
            "SELECT 1 FROM apple_revocations WHERE revoked_at IS NULL AND abandoned_at IS NULL AND next_attempt_at <= ? LIMIT 1", now
        ) { _ in true } ?? false
    }

    /// Takes up to `limit` revocations due by `now`, oldest first, for one sender: their next
    /// attempt moves to `leaseEnd`, so no other instance's sender takes them meanwhile.
    static func claimDue(now: Int64, leaseEnd: Int64, limit: Int, on db: StoreConnection) throws -> [Claimed] {
        try db.query(db.dialect == .postgres ? claimOnPostgreSQL : claimOnSQLite, leaseEnd, now, limit) { row in
            (row.int64(at: 0), row.text(at: 1) ?? "", row.text(at: 2) ?? "", row.int(at: 3), row.int64(at: 4), row.blob(at: 5))
        }.sorted { $0.id < $1.id }
    }

    // Built once each: statements are cached by their text.
    private static let claimOnSQLite = claim(SQLDialect.sqlite)
    private static let claimOnPostgreSQL = claim(SQLDialect.postgres)

    private static func claim(_ dialect: SQLDialect) -> String {
        """
        UPDATE apple_revocations SET next_attempt_at = ? WHERE id IN (
            SELECT id FROM apple_revocations WHERE revoked_at IS NULL AND abandoned_at IS NULL AND next_attempt_at <= ?
            ORDER BY next_attempt_at, id LIMIT ?\(dialect.skippingLockedRows)
        ) RETURNING id, user_id, client_id, attempts, created_at, sealed_token
        """
    }

    /// A claimed revocation left untried (the sender is stopping): due again at `now`.
    static func release(_ id: Int64, now: Int64, on db: StoreConnection) throws {
        try db.run("UPDATE apple_revocations SET next_attempt_at = ? WHERE id = ?", now, id)
    }

    /// The token goes with the revocation: Apple no longer honours it, and nothing keeps it.
    static func markRevoked(_ id: Int64, now: Int64, on db: StoreConnection) throws {
        try db.run(
            "UPDATE apple_revocations SET revoked_at = ?, attempts = attempts + 1, last_error = NULL, sealed_token = NULL WHERE id = ?", now, id
        )
    }

    static func markFailed(_ id: Int64, retryAt: Int64, error: String, on db: StoreConnection) throws {
        try db.run("UPDATE apple_revocations SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE id = ?", retryAt, error, id)
    }

    /// Given up: the reason stays for the operator, the token does not.
    static func markAbandoned(_ id: Int64, now: Int64, error: String, on db: StoreConnection) throws {
        try db.run(
            "UPDATE apple_revocations SET attempts = attempts + 1, abandoned_at = ?, last_error = ?, sealed_token = NULL WHERE id = ?",
            now, error, id
        )
    }
}
