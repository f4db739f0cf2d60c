/// The SQL of MFA challenges (migrations/0019): only the token's SHA-256 is stored.
enum MFAChallengeStore {
    /// An open challenge as stored: whose it is and how its wrong codes count.
    struct Row: Sendable {
        let userID: String
        let accountKey: String
        let passwordEpoch: Int64
        let deviceID: [UInt8]?
        let expiresAt: Int64
        let wrongCodes: Int
        let used: Bool
    }

    static func insert(
        hash: [UInt8], userID: String, accountKey: String, passwordEpoch: Int64, deviceID: [UInt8]?, now: Int64, lifetime: Int64,
        on db: StoreConnection
    ) throws {
        // Expired challenges go as new ones come, so the table stays the size of the
        // last few minutes' logins.
        try db.run("DELETE FROM mfa_challenges WHERE expires_at < ?", now - lifetime)
        try db.run(
            """
            INSERT INTO mfa_challenges (token_hash, user_id, account_key, password_epoch, device_id, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            hash, userID, accountKey, passwordEpoch, deviceID, now, now + lifetime
        )
    }

    static func row(hash: [UInt8], on db: StoreConnection) throws -> Row? {
        try db.queryOne(
            "SELECT user_id, account_key, password_epoch, device_id, expires_at, wrong_codes, used_at FROM mfa_challenges WHERE token_hash = ?",
            hash
        ) { row in
            Row(
                userID: row.text(at: 0) ?? "", accountKey: row.text(at: 1) ?? "", passwordEpoch: row.int64(at: 2),
                deviceID: row.blob(at: 3), expiresAt: row.int64(at: 4), wrongCodes: row.int(at: 5), used: !row.isNull(at: 6)
            )
        }
    }

    /// Uses the challenge up, if it is still open at `now`: false when another request
    /// used it, or it expired or ran out of wrong codes meanwhile.
    static func use(hash: [UInt8], now: Int64, maxWrongCodes: Int, on db: StoreConnection) throws -> Bool {
        try db.queryOne(
            """
            UPDATE mfa_challenges SET used_at = ?
            WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? AND wrong_codes < ? RETURNING user_id
            """,
            now, hash, now, maxWrongCodes
        ) { _ in true } ?? false
    }

    static func countWrongCode(hash: [UInt8], on db: StoreConnection) throws {
        try db.run("UPDATE mfa_challenges SET wrong_codes = wrong_codes + 1 WHERE token_hash = ? AND used_at IS NULL", hash)
    }
}
