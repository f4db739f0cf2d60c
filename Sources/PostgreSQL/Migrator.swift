public import SchemaMigrations
import SQLValues

extension Migrator {
    /// Applies the pending migrations in version order; returns the versions applied now.
    ///
    /// Several instances may start at once against one database. Every transaction here
    /// first takes one transaction-scoped advisory lock (`pg_advisory_xact_lock`, a fixed
    /// key), so they run one at a time, and each re-reads the records after taking it: a
    /// migration is applied exactly once, and the others see it recorded and skip it. The
    /// records live in the connection's current schema, the first of its search_path;
    /// PostgreSQL's DDL is transactional, so a migration lands completely or not at all.
    @discardableResult
    public func migrate(_ db: Connection) throws -> [Int] {
        try migrate(PostgreSQLMigrationDatabase(db: db))
    }
}

/// PostgreSQL's side of a migration run: every transaction takes the advisory lock first.
private struct PostgreSQLMigrationDatabase: MigrationDatabase {
    let db: Connection

    /// The advisory lock's key: the ASCII of "lkmigrat", fixed so that every build agrees.
    /// Advisory locks are per database, so instances on other databases never wait for it.
    static let advisoryLockKey: Int64 = 0x6c6b_6d69_6772_6174

    var versionColumnType: String { "BIGINT" }
    /// The same text form as SQLite's records: UTC, milliseconds, a trailing Z.
    var nowAsText: String { #"to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')"# }

    /// READ COMMITTED on purpose: each statement sees what was committed before it started,
    /// so the SELECT after the lock sees another instance's record. (A SERIALIZABLE
    /// snapshot would be taken by the lock statement itself, before the wait.) The lock is
    /// held until the transaction ends, whichever way it ends.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try db.transaction(.readCommitted) { db in
            try db.run("SELECT pg_advisory_xact_lock(?)", Self.advisoryLockKey)
            return try body()
        }
    }

    /// Under the lock: two sessions running CREATE TABLE IF NOT EXISTS at the same moment
    /// can both find the table missing, and one then fails on the catalog's unique index.
    func readingRecords<T>(_ body: () throws -> T) throws -> T {
        try transaction(body)
    }

    func execute(_ sql: String) throws(PostgreSQLError) {
        try db.execute(sql)
    }

    func message(of failure: PostgreSQLError) -> String { failure.message }

    func run(_ sql: String, _ values: [SQLValue]) throws {
        _ = try db.run(sql, values: values)
    }

    func rows(_ sql: String, _ values: [SQLValue]) throws -> [[SQLValue]] {
        try db.query(sql, values: values) { row in (0..<row.columnCount).map(row.value(at:)) }
    }
}
