import AuthCrypto
import Synchronization

/// The SQL of ceremony challenges (migrations/0020, 0021, 0022). A registration challenge is
/// stored only as SHA-256 and deleted by its first use whatever its outcome; a sign-in
/// challenge has no row until it is spent (`LoginChallenges`, `spend`). Either way a
/// challenge can be answered once.
enum WebAuthnChallengeStore {
    /// Five minutes to answer: enough for a person at a browser prompt, short for a thief.
    static let lifetime: Int64 = 300

    /// A fresh 256-bit registration challenge for `userID`'s account, stored as its hash;
    /// expired ones are swept out as new ones come, so the table holds only minutes' worth.
    static func makeRegistration(for userID: String, now: Int64, on db: StoreConnection) throws -> [UInt8] {
        try db.run("DELETE FROM webauthn_challenges WHERE expires_at <= ?", now)
        let challenge = SecureRandom.bytes(32)
        try db.run(
            "INSERT INTO webauthn_challenges (challenge_hash, purpose, user_id, expires_at) VALUES (?, 'register', ?, ?)",
            SHA256.hash(challenge), userID, now + lifetime
        )
        return challenge
    }

    /// Takes the challenge the client data names out of the table and tells whether it
    /// was a live registration challenge of `userID`'s: unknown, used, expired, a sign-in
    /// challenge or another account's are all false, and all gone.
    static func consumeRegistration(_ challenge: [UInt8], of userID: String, now: Int64, on db: StoreConnection) throws -> Bool {
        guard let row = try db.queryOne(
            "DELETE FROM webauthn_challenges WHERE challenge_hash = ? RETURNING user_id, expires_at", SHA256.hash(challenge),
            row: { row in (userID: row.text(at: 0), expiresAt: row.int64(at: 1)) }
        ) else { return false }
        return row.userID == userID && row.expiresAt > now
    }

    /// Records a sign-in challenge (`LoginChallenges`) as used; false when it was already,
    /// so it works once. Spent ones are kept only until they would have expired; keyed by
    /// that expiry first (migration 0022), the insert lands at the table's end and the
    /// sweep takes from its start. No RETURNING: SQLite keeps a RETURNING statement's rows in
    /// a temporary B-tree of their own, an allocation on the one writer for every sign-in.
    static func spend(_ challenge: [UInt8], expiresAt: Int64, now: Int64, on db: StoreConnection) throws -> Bool {
        if sweepIsDue(now) { try db.run("DELETE FROM webauthn_spent_challenges WHERE expires_at <= ?", now) }
        try db.run(
            "INSERT INTO webauthn_spent_challenges (expires_at, challenge_hash) VALUES (?, ?) ON CONFLICT DO NOTHING",
            expiresAt, SHA256.hash(challenge)
        )
        return db.changes == 1
    }

    /// The second of the last sweep of expired spent challenges: once a second is enough, and
    /// saves the writer a statement at every other sign-in of that second. A sweep whose
    /// batch rolls back is simply made a second later.
    private static let lastSweep = Atomic<Int64>(0)

    private static func sweepIsDue(_ now: Int64) -> Bool {
        let last = lastSweep.load(ordering: .relaxed)
        return last != now && lastSweep.compareExchange(expected: last, desired: now, ordering: .relaxed).exchanged
    }
}
