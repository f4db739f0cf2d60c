/// Failed password checks per account and scope (a client address, or `*` for the
/// account from everywhere), in the database so a restart does not reset an attack's count.
enum PasswordFailureStore {
    static let everywhere = "*"

    /// Failures in the window still open at `now`, with when it opened.
    static func failures(accountKey: String, scope: String, now: Int64, window: Int64, on db: StoreConnection) throws -> FailureWindow {
        let row = try db.queryOne(
            "SELECT failures, window_start FROM password_failures WHERE account_key = ? AND scope = ?", accountKey, scope
        ) { FailureWindow(count: $0.int(at: 0), start: $0.int64(at: 1)) }
        guard let row, now - row.start < window else { return FailureWindow(count: 0, start: now) }
        return row
    }

    /// The stored window is named by its table and the new failure's by `excluded` (both
    /// databases read them so), and each value has its own `?` (no `?NNN` numbering).
    static func recordFailure(accountKey: String, scope: String, now: Int64, window: Int64, on db: StoreConnection) throws {
        try db.run(
            """
            INSERT INTO password_failures (account_key, scope, window_start, failures) VALUES (?, ?, ?, 1)
            ON CONFLICT (account_key, scope) DO UPDATE SET
                failures = CASE WHEN excluded.window_start - password_failures.window_start < ?
                    THEN password_failures.failures + 1 ELSE 1 END,
                window_start = CASE WHEN excluded.window_start - password_failures.window_start < ?
                    THEN password_failures.window_start ELSE excluded.window_start END
            """,
            accountKey, scope, now, window, window
        )
    }

    static func reset(accountKey: String, scope: String, on db: StoreConnection) throws {
        try db.run("DELETE FROM password_failures WHERE account_key = ? AND scope = ?", accountKey, scope)
    }

    /// Old windows are dead weight: drop them so the table stays small.
    static func prune(olderThan cutoff: Int64, on db: StoreConnection) throws {
        try db.run("DELETE FROM password_failures WHERE window_start < ?", cutoff)
    }
}

/// A count of failures and when its window opened.
struct FailureWindow: Equatable {
    let count: Int
    let start: Int64
}
