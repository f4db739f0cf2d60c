public import SQLValues

extension Connection {
    /// Runs one statement with its parameters bound, discarding any rows, and returns the
    /// number of rows it affected: `try db.run("UPDATE users SET name = ? WHERE id = ?", name, id)`.
    ///
    /// The same call as SQLite's wrapper: `?` placeholders, Swift values passed directly
    /// (`Int`, `String`, `[UInt8]`, `Bool`, `Double`, optionals, `nil`), the statement
    /// prepared once per connection. Values are always bound, never spliced into the SQL.
    @discardableResult
    public func run(_ sql: String, _ bindings: (any SQLBindable)?...) throws(PostgreSQLError) -> Int {
        try run(sql, values: bindings.sqlValues)
    }

    /// `run` for values already held in an array (Swift cannot pass an array as variadics).
    @discardableResult
    public func run(_ sql: String, values: [SQLValue]) throws(PostgreSQLError) -> Int {
        try executePrepared(sql, values).affectedRows
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

    public func query<T>(_ sql: String, values: [SQLValue], row: (Row) throws -> T) throws -> [T] {
        let result = try executePrepared(sql, values)
        var rows: [T] = []
        rows.reserveCapacity(result.rowCount)
        for index in 0..<result.rowCount {
            rows.append(try row(Row(result, index: index)))
        }
        return rows
    }

    /// The first row of a query, or nil when there is none. The server still sends every
    /// row the query produces, so give a query that may match many a `LIMIT 1`.
    public func queryOne<T>(
        _ sql: String,
        _ bindings: (any SQLBindable)?...,
        row: (Row) throws -> T
    ) throws -> T? {
        try queryOne(sql, values: bindings.sqlValues, row: row)
    }

    public func queryOne<T>(_ sql: String, values: [SQLValue], row: (Row) throws -> T) throws -> T? {
        let result = try executePrepared(sql, values)
        guard result.rowCount > 0 else { return nil }
        return try row(Row(result, index: 0))
    }

}
