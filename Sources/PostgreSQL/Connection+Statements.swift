import CPostgreSQL
import SQLValues

extension Connection {
    /// Statements kept per session before the cache is emptied. Store SQL is a fixed set of
    /// literals (values are always bound, never spliced in), so the cap is a guard against
    /// misuse rather than an eviction policy.
    static let statementCacheLimit = 512

    /// Statements currently prepared through this connection's cache.
    public var cachedStatementCount: Int {
        statementCache.count
    }

    /// The prepared statement for `sql`: rewritten and prepared once per session, then
    /// reused, so the server parses and plans each store statement once per connection.
    func prepared(_ sql: String) throws(PostgreSQLError) -> PreparedStatement {
        if let statement = statementCache[sql] { return statement }
        let (rewritten, parameterCount) = Placeholders.rewrite(sql)
        if statementCache.count >= Self.statementCacheLimit {
            try execute("DEALLOCATE ALL")
            statementCache.removeAll(keepingCapacity: true)
        }
        nextStatementNumber += 1
        let name = "latchkey_\(nextStatementNumber)"
        // No parameter types: the server infers each from its place in the statement.
        _ = try checked(libpq.PQprepare(open, name, rewritten, 0, nil))
        let statement = PreparedStatement(name: name, parameterCount: parameterCount)
        statementCache[sql] = statement
        return statement
    }

    /// Runs `sql` (from the cache) with `values` bound; the whole result comes back at once.
    func executePrepared(_ sql: String, _ values: [SQLValue]) throws(PostgreSQLError) -> QueryResult {
        let statement = try prepared(sql)
        // A count mismatch means the SQL and the call site disagree; the server would reject
        // it anyway, but it is a bug to stop on, as SQLite's wrapper does.
        precondition(
            values.count == statement.parameterCount,
            "statement has \(statement.parameterCount) parameters but \(values.count) values were bound"
        )
        let parameters = try Parameters(values)
        let connection = open
        let result = parameters.withPointers { values, lengths, formats in
            // Result format 0: every column as text, which Row parses.
            libpq.PQexecPrepared(connection, statement.name, Int32(parameters.count), values, lengths, formats, 0)
        }
        let checkedResult = try checked(result)
        noteChanges(checkedResult)
        return checkedResult
    }
}
