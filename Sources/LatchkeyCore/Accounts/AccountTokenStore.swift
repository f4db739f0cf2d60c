/// The SQL of single-use tokens mailed to an account (migrations/0006); only their
/// SHA-256 is stored.
enum AccountTokenStore {
    static func insert(
        hash: [UInt8], userID: String, purpose: String, now: Int64, lifetime: Int64,
        newEmail: String? = nil, askingSession: String? = nil, on db: StoreConnection
    ) throws {
        try db.run(
            """
            INSERT INTO account_tokens (token_hash, user_id, purpose, new_email, asking_session, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            hash, userID, purpose, newEmail, askingSession, now, now + lifetime
        )
    }

    /// A live token of any of `purposes`: its user, purpose, and for an email change the
    /// new address and the session that asked.
    static func live(hash: [UInt8], purposes: [String], now: Int64, on db: StoreConnection) throws
        -> (userID: String, purpose: String, newEmail: String?, askingSession: String?)? {
        try db.query(
            "SELECT user_id, purpose, new_email, asking_session FROM account_tokens WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?",
            hash, now
        ) { row in (row.text(at: 0) ?? "", row.text(at: 1) ?? "", row.text(at: 2), row.text(at: 3)) }
            .first { purposes.contains($0.purpose) }
    }

    /// The user a live token of `purpose` belongs to: unused and not expired.
    static func liveUser(hash: [UInt8], purpose: String, now: Int64, on db: StoreConnection) throws -> String? {
        try db.queryOne(
            "SELECT user_id FROM account_tokens WHERE token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?",
            hash, purpose, now
        ) { $0.text(at: 0) } ?? nil
    }

    /// Every live token of `purpose` of the user is used up (a new one voids the older).
    static func useAll(of userID: String, purpose: String, now: Int64, on db: StoreConnection) throws {
        try db.run(
            "UPDATE account_tokens SET used_at = ? WHERE user_id = ? AND purpose = ? AND used_at IS NULL", now, userID, purpose
        )
    }

    /// When the account was last sent a token of `purpose`, for the one-mail-a-minute rule.
    static func lastSent(_ purpose: String, to userID: String, on db: StoreConnection) throws -> Int64? {
        try db.queryOne("SELECT max(created_at) FROM account_tokens WHERE user_id = ? AND purpose = ?", userID, purpose) { row in
            row.isNull(at: 0) ? nil : row.int64(at: 0)
        } ?? nil
    }
}
