internal import SQLite

/// Failed logins per account, in the database so a restart does not reset an attack's count.
enum LoginThrottleStore {
    /// Failures in the window that is still open at `now`, with when it opened.
    static func failures(emailKey: String, now: Int64, window: Int64, on db: Connection) throws -> (count: Int, windowStart: Int64) {
        let row = try db.queryOne("SELECT failures, window_start FROM login_failures WHERE email_key = ?", emailKey) {
            (count: $0.int(at: 0), windowStart: $0.int64(at: 1))
        }
        guard let row, now - row.windowStart < window else { return (0, now) }
        return row
    }

    static func recordFailure(emailKey: String, now: Int64, window: Int64, on db: Connection) throws {
        try db.run(
            """
            INSERT INTO login_failures (email_key, window_start, failures) VALUES (?1, ?2, 1)
            ON CONFLICT (email_key) DO UPDATE SET
                failures = CASE WHEN ?2 - window_start < ?3 THEN failures + 1 ELSE 1 END,
                window_start = CASE WHEN ?2 - window_start < ?3 THEN window_start ELSE ?2 END
            """,
            emailKey, now, window
        )
    }

    static func reset(emailKey: String, on db: Connection) throws {
        try db.run("DELETE FROM login_failures WHERE email_key = ?", emailKey)
    }

    /// Old windows are dead weight: drop them so the table stays small.
    static func prune(olderThan cutoff: Int64, on db: Connection) throws {
        try db.run("DELETE FROM login_failures WHERE window_start < ?", cutoff)
    }
}
