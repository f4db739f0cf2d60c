/// The SQL of provider identities (migrations/0024).
enum IdentityStore {
    /// The account an identity belongs to.
    static func userID(provider: String, subject: String, on db: StoreConnection) throws -> String? {
        try db.queryOne("SELECT user_id FROM identities WHERE provider = ? AND subject = ?", provider, subject) { $0.text(at: 0) } ?? nil
    }

    static func identities(of userID: String, on db: StoreConnection) throws -> [Identity] {
        try db.query(
            "SELECT provider, subject, email, created_at FROM identities WHERE user_id = ? ORDER BY created_at, provider", userID, row: identity)
    }

    static func identity(of userID: String, provider: String, on db: StoreConnection) throws -> Identity? {
        try db.queryOne(
            "SELECT provider, subject, email, created_at FROM identities WHERE user_id = ? AND provider = ?", userID, provider, row: identity)
    }

    private static func identity(_ row: StoreRow) -> Identity {
        Identity(provider: row.text(at: 0) ?? "", subject: row.text(at: 1) ?? "", email: row.text(at: 2), createdAt: row.int64(at: 3))
    }

    static func count(of userID: String, on db: StoreConnection) throws -> Int {
        try db.queryOne("SELECT count(*) FROM identities WHERE user_id = ?", userID) { $0.int(at: 0) } ?? 0
    }

    static func insert(provider: String, subject: String, userID: String, email: String?, now: Int64, on db: StoreConnection) throws -> Identity {
        try db.run(
            "INSERT INTO identities (provider, subject, user_id, email, created_at) VALUES (?, ?, ?, ?, ?)", provider, subject, userID, email, now)
        return Identity(provider: provider, subject: subject, email: email, createdAt: now)
    }

    static func delete(of userID: String, provider: String, on db: StoreConnection) throws {
        try db.run("DELETE FROM identities WHERE user_id = ? AND provider = ?", userID, provider)
    }

    /// The ways an account signs in, counted: its password, passkeys and identities. An
    /// account must keep one (`LAST_SIGN_IN_METHOD`).
    static func waysIn(of userID: String, on db: StoreConnection) throws -> (password: Bool, passkeys: Int, identities: Int) {
        let hasPassword = try !(AccountStore.passwordHash(userID: userID, on: db) ?? "").isEmpty
        return (hasPassword, try PasskeyStore.count(of: userID, on: db), try count(of: userID, on: db))
    }
}
