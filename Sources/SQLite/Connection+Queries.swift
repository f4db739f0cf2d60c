public import SQLValues

extension Connection {
    /// Runs one statement with its parameters bound, discarding any rows:
    /// `try db.run("UPDATE users SET name = ? WHERE id = ?", name, id)`.
    ///
    /// Values are always bound, never spliced into the SQL; pass Swift values directly
    /// (`Int`, `String`, `[UInt8]`, `Bool`, `Double`, optionals, `nil`). The statement
    /// comes from the per-connection cache.
    public func run(_ sql: String, _ bindings: (any SQLBindable)?...) throws(SQLiteError) {
        try run(sql, values: bindings.sqlValues)
    }

    /// `run` with values already gathered, for a caller that forwards its own list of
    /// parameters (a variadic list cannot be passed on as one).
    public func run(_ sql: String, values: [SQLValue]) throws(SQLiteError) {
        let statement = try prepared(sql, values)
        defer { release(statement) }
        try statement.run()
    }

    /// Every row of a query, each turned into a value by `row`:
    /// `try db.query("SELECT id, name FROM users WHERE org = ?", org) { ($0.int64(at: 0), $0.text(at: 1)) }`.
    public func query<T>(
        _ sql: String,
        _ bindings: (any SQLBindable)?...,
        row: (Row) throws -> T
    ) throws -> [T] {
        try query(sql, values: bindings.sqlValues, row: row)
    }

    /// `query` with values already gathered (see `run(_:values:)`).
    public func query<T>(_ sql: String, values: [SQLValue], row: (Row) throws -> T) throws -> [T] {
        let statement = try prepared(sql, values)
        defer { release(statement) }
        var results: [T] = []
        while try statement.step() {
            results.append(try row(Row(statement)))
        }
        return results
    }

    /// The first row of a query, or nil when there is none. Rows after the first are not read.
    public func queryOne<T>(
        _ sql: String,
        _ bindings: (any SQLBindable)?...,
        row: (Row) throws -> T
    ) throws -> T? {
        try queryOne(sql, values: bindings.sqlValues, row: row)
    }

    /// `queryOne` with values already gathered (see `run(_:values:)`).
    public func queryOne<T>(_ sql: String, values: [SQLValue], row: (Row) throws -> T) throws -> T? {
        let statement = try prepared(sql, values)
        defer { release(statement) }
        guard try statement.step() else { return nil }
        return try row(Row(statement))
    }


    private func prepared(_ sql: String, _ values: [SQLValue]) throws(SQLiteError) -> Statement {
        let statement = try cached(sql)
        try statement.bind(values)
        return statement
    }

    /// Ends the statement's read (a reader must not pin an old WAL snapshot) and drops
    /// SQLite's copies of the bound values, which may be secrets.
    private func release(_ statement: Statement) {
        statement.reset()
        statement.clearBindings()
    }
}
