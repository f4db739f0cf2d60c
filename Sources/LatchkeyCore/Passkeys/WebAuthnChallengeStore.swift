import AuthCrypto

/// The SQL of ceremony challenges (migrations/0020): stored only as SHA-256, deleted by
/// their first use whatever its outcome, so a challenge can be answered once.
enum WebAuthnChallengeStore {
    /// Sign-in challenges have no row until they are spent (`LoginChallenges`, `spend`).
    enum Purpose: String {
        case register
    }

    /// Five minutes to answer: enough for a person at a browser prompt, short for a thief.
    static let lifetime: Int64 = 300

    /// A fresh 256-bit challenge for `purpose`, stored as its hash; expired ones are swept
    /// out as new ones come, so the table holds only minutes' worth.
    static func make(_ purpose: Purpose, for userID: String?, now: Int64, on db: StoreConnection) throws -> [UInt8] {
        try db.run("DELETE FROM webauthn_challenges WHERE expires_at <= ?", now)
        let challenge = SecureRandom.bytes(32)
        try db.run(
            "INSERT INTO webauthn_challenges (challenge_hash, purpose, user_id, expires_at) VALUES (?, ?, ?, ?)",
            SHA256.hash(challenge), purpose.rawValue, userID, now + lifetime
        )
        return challenge
    }

    /// Takes the challenge the client data names out of the table and tells whether it
    /// was live for `purpose` (and for `userID`, when a registration): unknown, used,
    /// expired, the other ceremony's or another account's are all false, and all gone.
    static func consume(_ challenge: [UInt8], for purpose: Purpose, userID: String?, now: Int64, on db: StoreConnection) throws -> Bool {
        guard let row = try db.queryOne(
            "DELETE FROM webauthn_challenges WHERE challenge_hash = ? RETURNING purpose, user_id, expires_at", SHA256.hash(challenge),
            row: { row in (purpose: row.text(at: 0), userID: row.text(at: 1), expiresAt: row.int64(at: 2)) }
        ) else { return false }
        return row.purpose == purpose.rawValue && row.userID == userID && row.expiresAt > now
    }

    /// Records a sign-in challenge (`LoginChallenges`) as used; false when it was already,
    /// so it works once. Spent ones are kept only until they would have expired.
    static func spend(_ challenge: [UInt8], expiresAt: Int64, now: Int64, on db: StoreConnection) throws -> Bool {
        try db.run("DELETE FROM webauthn_spent_challenges WHERE expires_at <= ?", now)
        return try db.queryOne(
            "INSERT INTO webauthn_spent_challenges (challenge_hash, expires_at) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING 1",
            SHA256.hash(challenge), expiresAt
        ) { _ in true } ?? false
    }
}
