/// The SQL of the TOTP factor and its recovery codes (migrations/0019). Every change that
/// must happen once (a code accepted, a recovery code spent, a pending factor made live)
/// is a conditional statement that says whether it changed a row, so two racing requests
/// cannot both succeed, on SQLite's one writer or PostgreSQL's several.
enum SecondFactorStore {
    /// A user's factor as stored: the secret still sealed.
    struct Factor: Sendable {
        let sealedSecret: [UInt8]
        let live: Bool
        let createdAt: Int64
        let enabledAt: Int64?
        let lastAcceptedStep: Int64?
    }

    static func factor(of userID: String, on db: StoreConnection) throws -> Factor? {
        try db.queryOne(
            "SELECT sealed_secret, enabled, created_at, enabled_at, last_accepted_step FROM totp_factors WHERE user_id = ?", userID
        ) { row in
            Factor(
                sealedSecret: row.blob(at: 0) ?? [], live: row.bool(at: 1), createdAt: row.int64(at: 2),
                enabledAt: row.isNull(at: 3) ? nil : row.int64(at: 3), lastAcceptedStep: row.isNull(at: 4) ? nil : row.int64(at: 4)
            )
        }
    }

    /// Whether the user has a live factor: a password alone then signs nobody in.
    static func isLive(_ userID: String, on db: StoreConnection) throws -> Bool {
        try db.queryOne("SELECT enabled FROM totp_factors WHERE user_id = ?", userID) { $0.bool(at: 0) } ?? false
    }

    /// A pending factor with `sealedSecret`, replacing a pending one; never a live one (the
    /// caller checked in the same transaction).
    static func savePending(_ sealedSecret: [UInt8], for userID: String, now: Int64, on db: StoreConnection) throws {
        try db.run(
            """
            INSERT INTO totp_factors (user_id, sealed_secret, enabled, created_at) VALUES (?, ?, 0, ?)
            ON CONFLICT (user_id) DO UPDATE SET sealed_secret = excluded.sealed_secret, created_at = excluded.created_at,
                enabled_at = NULL, last_accepted_step = NULL
            WHERE totp_factors.enabled = 0
            """,
            userID, sealedSecret, now
        )
    }

    /// Makes the pending factor sealed as `sealedSecret` live, its first code's `step`
    /// used; false when it is no longer that pending factor (made live meanwhile, replaced).
    static func makeLive(_ userID: String, sealedSecret: [UInt8], step: Int64, now: Int64, on db: StoreConnection) throws -> Bool {
        try db.queryOne(
            """
            UPDATE totp_factors SET enabled = 1, enabled_at = ?, last_accepted_step = ?
            WHERE user_id = ? AND enabled = 0 AND sealed_secret = ? RETURNING user_id
            """,
            now, step, userID, sealedSecret
        ) { _ in true } ?? false
    }

    /// Spends `step` of the live factor: false when that step or a later one was accepted
    /// already (a replay, or the loser of two racing uses of one code).
    static func accept(step: Int64, of userID: String, on db: StoreConnection) throws -> Bool {
        try db.queryOne(
            """
            UPDATE totp_factors SET last_accepted_step = ?
            WHERE user_id = ? AND enabled = 1 AND (last_accepted_step IS NULL OR last_accepted_step < ?) RETURNING user_id
            """,
            step, userID, step
        ) { _ in true } ?? false
    }

    /// Removes the factor, pending or live, with its recovery codes and open challenges;
    /// nil when there was none, else whether it was live.
    static func remove(of userID: String, on db: StoreConnection) throws -> Bool? {
        let wasLive = try db.queryOne("DELETE FROM totp_factors WHERE user_id = ? RETURNING enabled", userID) { $0.bool(at: 0) }
        guard let wasLive else { return nil }
        try db.run("DELETE FROM recovery_codes WHERE user_id = ?", userID)
        try db.run("DELETE FROM mfa_challenges WHERE user_id = ?", userID)
        return wasLive
    }

    static func recoveryCodeHashes(of userID: String, on db: StoreConnection) throws -> [[UInt8]] {
        try db.query("SELECT code_hash FROM recovery_codes WHERE user_id = ?", userID) { $0.blob(at: 0) ?? [] }
    }

    static func recoveryCodesLeft(of userID: String, on db: StoreConnection) throws -> Int {
        try db.queryOne("SELECT count(*) FROM recovery_codes WHERE user_id = ?", userID) { $0.int(at: 0) } ?? 0
    }

    /// The user's recovery codes become `hashes`; the old ones are void.
    static func replaceRecoveryCodes(of userID: String, with hashes: [[UInt8]], now: Int64, on db: StoreConnection) throws {
        try db.run("DELETE FROM recovery_codes WHERE user_id = ?", userID)
        for hash in hashes {
            try db.run("INSERT INTO recovery_codes (user_id, code_hash, created_at) VALUES (?, ?, ?)", userID, hash, now)
        }
    }

    /// Spends one recovery code: false when it was spent already (by a racing request).
    static func spendRecoveryCode(_ hash: [UInt8], of userID: String, on db: StoreConnection) throws -> Bool {
        try db.queryOne("DELETE FROM recovery_codes WHERE user_id = ? AND code_hash = ? RETURNING user_id", userID, hash) { _ in true } ?? false
    }
}
