import CSQLite

extension Connection {
    /// Statements kept per connection before the cache is emptied. Store SQL is a fixed set
    /// of literals (values are always bound, never spliced in), so the cap is a guard against
    /// misuse rather than an eviction policy.
    static let statementCacheLimit = 512

    /// Compiles one statement. The SQL must hold exactly one statement.
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try prepare(sql, flags: 0)
    }

    /// The compiled statement for `sql`, compiled once per connection and reused.
    ///
    /// It comes back reset with its bindings cleared. Reset it when done (the `run` and
    /// `query` helpers do), because a statement left mid-read keeps its read transaction,
    /// and with it an old WAL snapshot, open. Do not ask for the same SQL again while an
    /// earlier use of it is still stepping: both uses get the same statement.
    public func cached(_ sql: String) throws(SQLiteError) -> Statement {
        let key = StatementCacheKey(sql: sql)
        if let statement = statementCache[key] {
            statement.reset()
            statement.clearBindings()
            return statement
        }
        let statement = try prepare(sql, flags: UInt32(SQLITE_PREPARE_PERSISTENT))
        if statementCache.count >= Self.statementCacheLimit {
            statementCache.removeAll(keepingCapacity: true)
        }
        statementCache[key] = statement
        return statement
    }

    private func prepare(_ sql: String, flags: UInt32) throws(SQLiteError) -> Statement {
        var pointer: OpaquePointer?
        var remainder = ""
        let code = sql.withCString { text -> Int32 in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(handle.pointer, text, -1, flags, &pointer, &tail)
            if code == SQLITE_OK, let tail { remainder = String(cString: tail) }
            return code
        }
        guard code == SQLITE_OK else {
            throw SQLiteError(resultCode: code, db: handle.pointer)
        }
        // Empty SQL (only whitespace or comments) compiles to nothing; asking for a statement
        // with no statement in it is a bug at the call site.
        guard let pointer else {
            preconditionFailure("prepare() was given SQL that holds no statement")
        }
        let statement = Statement(pointer, handle: handle)
        try rejectTrailingStatements(remainder)
        return statement
    }

    /// A second statement after the first would be silently ignored by SQLite; that is always
    /// a mistake at the call site (scripts go through `execute`), so stop on it.
    private func rejectTrailingStatements(_ remainder: String) throws(SQLiteError) {
        guard remainder.contains(where: { !$0.isWhitespace && $0 != ";" }) else { return }
        var pointer: OpaquePointer?
        let code = sqlite3_prepare_v2(handle.pointer, remainder, -1, &pointer, nil)
        sqlite3_finalize(pointer)
        guard code == SQLITE_OK else {
            throw SQLiteError(resultCode: code, db: handle.pointer)
        }
        precondition(pointer == nil, "prepare() was given more than one statement; use execute() for scripts")
    }
}
