public import SchemaMigrations
import SQLValues

extension Migrator {
    /// Applies the pending migrations in version order, each in its own IMMEDIATE
    /// transaction; returns the versions applied now.
    @discardableResult
    public func migrate(_ db: Connection) throws -> [Int] {
        try migrate(SQLiteMigrationDatabase(db: db))
    }
}

/// SQLite's side of a migration run. The IMMEDIATE transaction takes the write lock at its
/// start, so a migration another process applied meanwhile is seen recorded.
private struct SQLiteMigrationDatabase: MigrationDatabase {
    let db: Connection

    var versionColumnType: String { "INTEGER" }
    var nowAsText: String { "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')" }

    func transaction<T>(_ body: () throws -> T) throws -> T {
        try db.transaction(.immediate, body)
    }

    /// Outside a transaction: a migration's IMMEDIATE transaction takes the write lock and
    /// reads its record again.
    func readingRecords<T>(_ body: () throws -> T) throws -> T {
        try body()
    }

    func execute(_ sql: String) throws(SQLiteError) {
        try db.execute(sql)
    }

    func message(of failure: SQLiteError) -> String { failure.message }

    func run(_ sql: String, _ values: [SQLValue]) throws {
        try db.run(sql, values: values)
    }

    func rows(_ sql: String, _ values: [SQLValue]) throws -> [[SQLValue]] {
        try db.query(sql, values: values) { row in (0..<row.columnCount).map(row.value(at:)) }
    }
}
