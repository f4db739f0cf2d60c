/// The SQL of account events: ending sessions, voiding links and device tokens, and telling
/// the other processes on the database what ended (a row of `account_events` on SQLite,
/// migrations/0016; a NOTIFY on PostgreSQL, sent when the transaction commits).
enum AccountEventStore {
    static let channel = "latchkey_account_events"
    /// Rows of the SQLite feed are kept this long: far longer than a tail's poll.
    static let feedRetention: Int64 = 3600

    static func endSessions(_ sessions: EndedAccess.Sessions, of userID: String, now: Int64, on db: StoreConnection) throws {
        switch sessions {
        case .one(let id): try SessionStore.revoke(id, now: now, on: db)
        case .allBut(let kept): try SessionStore.revokeAll(of: userID, keeping: kept, now: now, on: db)
        case .noSession: break
        }
    }

    /// Every reset, verification and email-change link of the user still outstanding.
    static func voidEveryLink(of userID: String, now: Int64, on db: StoreConnection) throws {
        try db.run("UPDATE account_tokens SET used_at = ? WHERE user_id = ? AND used_at IS NULL", now, userID)
    }

    /// The email-change links `sessionID` asked for: whoever asked must still be signed in.
    static func voidLinks(askedBy sessionID: String, now: Int64, on db: StoreConnection) throws {
        try db.run(voidLinksAskedBy, now, sessionID)
    }

    /// Found through `account_tokens_by_asking_session` (migrations/0026), not by reading
    /// every token ever made: every logout runs this on the one writer.
    static let voidLinksAskedBy = "UPDATE account_tokens SET used_at = ? WHERE asking_session = ? AND used_at IS NULL"

    static func advancePasswordEpoch(of userID: String, on db: StoreConnection) throws {
        try db.run("UPDATE users SET password_epoch = password_epoch + 1 WHERE id = ?", userID)
    }

    /// The user's stored status, nil for an unknown user.
    static func presenceStatus(of userID: String, on db: StoreConnection) throws -> String? {
        try db.queryOne("SELECT status FROM presence WHERE user_id = ?", userID) { $0.text(at: 0) } ?? nil
    }

    /// Tells the other processes, once this transaction commits.
    static func announce(_ ended: EndedAccess, from origin: String, now: Int64, on db: StoreConnection) throws {
        switch db.dialect {
        case .sqlite:
            try db.run("INSERT INTO account_events (origin, payload, at) VALUES (?, ?, ?)", origin, ended.payload, now)
            try db.run(pruneFeed, now - feedRetention)
        case .postgres:
            _ = try db.query("SELECT pg_notify(?, ?)", channel, origin + " " + ended.payload) { _ in () }
        }
    }

    /// Through `account_events_by_time` (migrations/0026): every event runs it, and the
    /// feed holds an hour of them.
    static let pruneFeed = "DELETE FROM account_events WHERE at < ?"

    /// SQLite's feed: the newest event's id (where a tail starts) ...
    static func lastEventID(on db: StoreConnection) throws -> Int64 {
        try db.queryOne("SELECT coalesce(max(id), 0) FROM account_events") { $0.int64(at: 0) } ?? 0
    }

    /// ... and the events after `id`, oldest first, at most `limit`.
    static func events(after id: Int64, limit: Int, on db: StoreConnection) throws -> [(id: Int64, origin: String, payload: String)] {
        try db.query("SELECT id, origin, payload FROM account_events WHERE id > ? ORDER BY id LIMIT ?", id, limit) { row in
            (row.int64(at: 0), row.text(at: 1) ?? "", row.text(at: 2) ?? "")
        }
    }
}
