/// The SQL of provider identities (migrations/0024).
enum IdentityStore {
    /// The account an identity belongs to.
    static func userID(provider: String, subject: String, on db: StoreConnection) throws -> String? {
        try db.queryOne("SELECT user_id FROM identities WHERE provider = ? AND subject = ?", provider, subject) { $0.text(at: 0) } ?? nil
    }

    private static let ownerBySubject = """
        SELECT \(AccountStore.prefixed(AccountStore.userColumns, with: "u.")), u.password_epoch
        FROM identities i JOIN users u ON u.id = i.user_id WHERE i.provider = ? AND i.subject = ?
        """

    /// The account an identity belongs to and its password epoch (`DeviceToken`), in one
    /// read: a returning user's sign-in, on the one writer.
    static func owner(provider: String, subject: String, on db: StoreConnection) throws -> (user: User, passwordEpoch: Int64)? {
        try db.queryOne(ownerBySubject, provider, subject) { row in
            (AccountStore.makeUser(row, from: 0), row.int64(at: 7))
        }
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
