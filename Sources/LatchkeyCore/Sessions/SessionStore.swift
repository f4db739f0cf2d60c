import SQLite

/// The SQL of sessions. Refresh tokens are stored only as their SHA-256.
enum SessionStore {
    private static let columns = "id, user_id, user_agent, created_at, last_used_at, revoked_at"
    // Built once (statements are cached by their text; see AccountStore).
    private static let byID = "SELECT \(columns) FROM sessions WHERE id = ?"
    private static let withUserByID = withUser(where: "s.id")
    private static let withUserByRefreshHash = withUser(where: "s.refresh_hash")

    /// A session and its user in one read, found by `column`.
    private static func withUser(where column: String) -> String {
        """
        SELECT \(columns.split(separator: ",").map { "s." + $0.trimmingWhitespace() }.joined(separator: ", ")),
               \(AccountStore.userColumns.split(separator: ",").map { "u." + $0.trimmingWhitespace() }.joined(separator: ", "))
        FROM sessions s JOIN users u ON u.id = s.user_id WHERE \(column) = ?
        """
    }
    private static let activeOfUser =
        "SELECT \(columns) FROM sessions WHERE user_id = ? AND revoked_at IS NULL AND last_used_at >= ? ORDER BY created_at, id"

    private static func makeSession(_ row: Row) -> Session {
        Session(
            id: row.text(at: 0) ?? "", userID: row.text(at: 1) ?? "", userAgent: row.text(at: 2),
            createdAt: row.int64(at: 3), lastUsedAt: row.int64(at: 4),
            revokedAt: row.isNull(at: 5) ? nil : row.int64(at: 5)
        )
    }

    static func create(id: String, userID: String, refreshHash: [UInt8], userAgent: String?, now: Int64, on db: Connection) throws {
        try db.run(
            "INSERT INTO sessions (id, user_id, refresh_hash, user_agent, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?)",
            id, userID, refreshHash, userAgent, now, now
        )
    }

    static func session(id: String, on db: Connection) throws -> Session? {
        try db.queryOne(byID, id, row: makeSession)
    }

    /// A session with its user in one read: the bearer check of every request.
    static func sessionWithUser(id: String, on db: Connection) throws -> (session: Session, user: User)? {
        try db.queryOne(withUserByID, id) { row in (makeSession(row), AccountStore.makeUser(row, from: 6)) }
    }

    /// The session whose current refresh token hashes to `refreshHash`, with its user.
    static func sessionWithUser(refreshHash: [UInt8], on db: Connection) throws -> (session: Session, user: User)? {
        try db.queryOne(withUserByRefreshHash, refreshHash) { row in (makeSession(row), AccountStore.makeUser(row, from: 6)) }
    }

    /// The session a retired refresh token belonged to, and when it was retired.
    static func retired(refreshHash: [UInt8], on db: Connection) throws -> (sessionID: String, retiredAt: Int64)? {
        try db.queryOne("SELECT session_id, retired_at FROM retired_refresh_tokens WHERE refresh_hash = ?", refreshHash) { row in
            (row.text(at: 0) ?? "", row.int64(at: 1))
        }
    }

    /// The current token is retired (remembered for reuse detection) and a new one issued.
    static func rotate(_ sessionID: String, from oldHash: [UInt8], to newHash: [UInt8], now: Int64, on db: Connection) throws {
        try db.run("INSERT OR REPLACE INTO retired_refresh_tokens (refresh_hash, session_id, retired_at) VALUES (?, ?, ?)", oldHash, sessionID, now)
        try db.run("UPDATE sessions SET refresh_hash = ?, last_used_at = ? WHERE id = ?", newHash, now, sessionID)
    }

    /// The session's current refresh token hash (to retire it on a reissue).
    static func currentRefreshHash(of sessionID: String, on db: Connection) throws -> [UInt8]? {
        try db.queryOne("SELECT refresh_hash FROM sessions WHERE id = ?", sessionID) { $0.blob(at: 0) }.flatMap { $0 }
    }

    /// Retired tokens older than `cutoff` can no longer matter: their sessions would have
    /// expired unless refreshed with a newer token.
    static func pruneRetired(olderThan cutoff: Int64, on db: Connection) throws {
        try db.run("DELETE FROM retired_refresh_tokens WHERE retired_at < ?", cutoff)
    }

    static func revoke(_ sessionID: String, now: Int64, on db: Connection) throws {
        try db.run("UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", now, sessionID)
    }

    /// Every live session of the user, except `keeping` if given.
    static func revokeAll(of userID: String, keeping: String? = nil, now: Int64, on db: Connection) throws {
        try db.run(
            "UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL AND id IS NOT ?",
            now, userID, keeping
        )
    }

    static func active(of userID: String, since: Int64, on db: Connection) throws -> [Session] {
        try db.query(
            activeOfUser, userID, since, row: makeSession
        )
    }
}
