/// What the Firestore and Realtime Database exports say of each user, kept on disk until
/// the accounts are imported: the import looks each account up by its id, so memory
/// stays the same however many documents the exports hold. The database is SQLite's
/// private temporary one (an empty file name): it lives in the temporary directory,
/// nobody else can open it, and it is deleted when the connection closes.
final class ImportStaging {
    private let db: StoreConnection

    init() throws {
        db = try StoreError.translating { try StoreConnection.temporary() }
        try db.execute("""
            CREATE TABLE profiles (user_id TEXT PRIMARY KEY, display_name TEXT, photo_url TEXT);
            CREATE TABLE name_owners (name_key TEXT PRIMARY KEY, name TEXT NOT NULL, user_id TEXT NOT NULL);
            CREATE INDEX name_owners_by_user ON name_owners (user_id);
            CREATE TABLE presence (user_id TEXT PRIMARY KEY, status TEXT NOT NULL, last_seen INTEGER);
            """)
    }

    /// Runs `body` (one export's rows) in one transaction: a commit per row would cost a
    /// sync of the temporary file each.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try db.transaction(body)
    }

    /// From `users/{uid}`; a later document of the same id replaces an earlier one.
    func setProfile(of userID: String, displayName: String?, photoURL: String?) throws {
        try db.run(
            """
            INSERT INTO profiles (user_id, display_name, photo_url) VALUES (?, ?, ?)
            ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name, photo_url = excluded.photo_url
            """,
            userID, displayName, photoURL
        )
    }

    /// From `displayNames/{name}`: who owns the name in the old app.
    func setOwner(ofName name: String, to userID: String) throws {
        try db.run(
            "INSERT INTO name_owners (name_key, name, user_id) VALUES (?, ?, ?) ON CONFLICT (name_key) DO UPDATE SET name = excluded.name, user_id = excluded.user_id",
            DisplayNameRules.key(name), name, userID
        )
    }

    /// From the Realtime Database's `userPresence/{uid}`.
    func setPresence(of userID: String, status: PresenceStatus, lastSeen: Int64?) throws {
        try db.run(
            "INSERT INTO presence (user_id, status, last_seen) VALUES (?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET status = excluded.status, last_seen = excluded.last_seen",
            userID, status.rawValue, lastSeen
        )
    }

    func profile(of userID: String) throws -> (displayName: String?, photoURL: String?)? {
        try db.queryOne("SELECT display_name, photo_url FROM profiles WHERE user_id = ?", userID) { ($0.text(at: 0), $0.text(at: 1)) }
    }

    /// A name the `displayNames` collection gives this user (the first by name, should it give several).
    func registeredName(of userID: String) throws -> String? {
        try db.queryOne("SELECT name FROM name_owners WHERE user_id = ? ORDER BY name_key LIMIT 1", userID) { $0.text(at: 0) } ?? nil
    }

    /// Whom the `displayNames` collection gives the name (compared as claims are, ignoring case).
    func owner(ofName name: String) throws -> String? {
        try db.queryOne("SELECT user_id FROM name_owners WHERE name_key = ?", DisplayNameRules.key(name)) { $0.text(at: 0) } ?? nil
    }

    func presence(of userID: String) throws -> (status: PresenceStatus, lastSeen: Int64?)? {
        try db.queryOne("SELECT status, last_seen FROM presence WHERE user_id = ?", userID) {
            (PresenceStatus(rawValue: $0.text(at: 0) ?? "") ?? .offline, $0.isNull(at: 1) ? nil : $0.int64(at: 1))
        }
    }
}
