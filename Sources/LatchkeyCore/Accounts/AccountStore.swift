/// The SQL of accounts, display-name claims and presence. Callers pass the connection, so
/// several calls share one transaction (signup writes four tables at once).
enum AccountStore {
    static let userColumns = "id, email, email_verified, display_name, photo_url, created_at, disabled"
    // Built once: statements are cached by their text, and a per-call interpolation would
    // cost an allocation and a longer hash on every request.
    private static let userByID = "SELECT \(userColumns) FROM users WHERE id = ?"
    private static let credentialsByEmail = "SELECT \(userColumns), password_hash, password_epoch FROM users WHERE email_key = ?"

    /// `a, b` as `p.a, p.b`, for a join.
    static func prefixed(_ columns: String, with prefix: String) -> String {
        columns.split(separator: ",").map { prefix + $0.trimmingWhitespace() }.joined(separator: ", ")
    }

    private static func makeUser(_ row: StoreRow) -> User {
        makeUser(row, from: 0)
    }

    /// The user whose `userColumns` start at column `first` of `row`.
    static func makeUser(_ row: StoreRow, from first: Int) -> User {
        User(
            id: row.text(at: first) ?? "", email: row.text(at: first + 1), emailVerified: row.bool(at: first + 2),
            displayName: row.text(at: first + 3), photoURL: row.text(at: first + 4), createdAt: row.int64(at: first + 5),
            disabled: row.bool(at: first + 6)
        )
    }

    static func user(id: String, on db: StoreConnection) throws -> User? {
        try db.queryOne(userByID, id, row: makeUser)
    }

    /// The user, stored password hash and password epoch (`DeviceToken`) for a login, in one read.
    static func credentials(emailKey: String, on db: StoreConnection) throws -> (user: User, passwordHash: String, passwordEpoch: Int64)? {
        try db.queryOne(credentialsByEmail, emailKey) { row in
            (makeUser(row), row.text(at: 7) ?? "", row.int64(at: 8))
        }
    }

    /// Moved on by every password change or reset (`DeviceToken`).
    static func passwordEpoch(userID: String, on db: StoreConnection) throws -> Int64 {
        try db.queryOne("SELECT password_epoch FROM users WHERE id = ?", userID) { $0.int64(at: 0) } ?? 0
    }

    static func passwordHash(userID: String, on db: StoreConnection) throws -> String? {
        try db.queryOne("SELECT password_hash FROM users WHERE id = ?", userID) { $0.text(at: 0) }.flatMap { $0 }
    }

    /// The `email_key` of an account: its address in lower case, or, for an account a
    /// provider made without one, `#` and its id (migrations/0024): never an address's.
    static func emailKey(of user: User) -> String {
        user.email?.lowercased() ?? noAddressKey(userID: user.id)
    }

    static func noAddressKey(userID: String) -> String { "#" + userID }

    static func emailExists(_ emailKey: String, on db: StoreConnection) throws -> Bool {
        try db.queryOne("SELECT 1 FROM users WHERE email_key = ?", emailKey) { _ in true } ?? false
    }

    static func claimExists(_ nameKey: String, on db: StoreConnection) throws -> Bool {
        try db.queryOne("SELECT 1 FROM display_names WHERE name_key = ?", nameKey) { _ in true } ?? false
    }

    static func insertUser(id: String, email: ValidEmail, passwordHash: String, displayName: String, now: Int64, on db: StoreConnection) throws {
        try db.run(
            "INSERT INTO users (id, email, email_key, password_hash, display_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            id, email.address, email.key, passwordHash, displayName, now, now
        )
    }

    /// An account a sign-in provider made: no password (an empty hash), no display name,
    /// and the provider's address if it shared one (else the key of migrations/0024).
    static func insertProviderUser(id: String, email: ValidEmail?, emailVerified: Bool, now: Int64, on db: StoreConnection) throws {
        try db.run(
            "INSERT INTO users (id, email, email_key, email_verified, password_hash, display_name, created_at, updated_at) VALUES (?, ?, ?, ?, '', NULL, ?, ?)",
            id, email?.address, email?.key ?? noAddressKey(userID: id), email != nil && emailVerified, now, now
        )
    }

    static func claim(_ nameKey: String, for userID: String, now: Int64, on db: StoreConnection) throws {
        try db.run("INSERT INTO display_names (name_key, user_id, claimed_at) VALUES (?, ?, ?)", nameKey, userID, now)
    }

    static func releaseClaim(of userID: String, on db: StoreConnection) throws {
        try db.run("DELETE FROM display_names WHERE user_id = ?", userID)
    }

    static func setDisplayName(_ name: String, for userID: String, now: Int64, on db: StoreConnection) throws {
        try db.run("UPDATE users SET display_name = ?, updated_at = ? WHERE id = ?", name, now, userID)
    }

    static func setPhotoURL(_ url: String?, for userID: String, now: Int64, on db: StoreConnection) throws {
        try db.run("UPDATE users SET photo_url = ?, updated_at = ? WHERE id = ?", url, now, userID)
    }

    /// A confirmed email change: the new address, verified.
    static func changeEmail(of userID: String, to email: ValidEmail, now: Int64, on db: StoreConnection) throws {
        try db.run(
            "UPDATE users SET email = ?, email_key = ?, email_verified = 1, updated_at = ? WHERE id = ?", email.address, email.key, now, userID
        )
    }

    static func markEmailVerified(_ userID: String, now: Int64, on db: StoreConnection) throws {
        try db.run("UPDATE users SET email_verified = 1, updated_at = ? WHERE id = ?", now, userID)
    }

    static func setPasswordHash(_ hash: String, for userID: String, now: Int64, on db: StoreConnection) throws {
        try db.run("UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?", hash, now, userID)
    }

    /// Claims, presence and sessions go with the user (ON DELETE CASCADE). Apple's refresh
    /// tokens move into the revocation queue first, in the same transaction: a deleted
    /// account's authorization at Apple is revoked even if Apple is down right now.
    static func deleteUser(_ userID: String, on db: StoreConnection) throws {
        try AppleTokenStore.queueRevocations(userID: userID, now: UnixTime.now(), on: db)
        try db.run("DELETE FROM users WHERE id = ?", userID)
    }

    static func setPresence(_ status: String, for userID: String, now: Int64, on db: StoreConnection) throws {
        try db.run(
            "INSERT INTO presence (user_id, status, last_seen) VALUES (?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET status = excluded.status, last_seen = excluded.last_seen",
            userID, status, now
        )
    }
}
