public import SchemaMigrations

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

    func records() throws -> [(version: Int, checksum: String)] {
        try db.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                checksum TEXT NOT NULL,
                applied_at TEXT NOT NULL
            )
            """)
        return try db.query("SELECT version, checksum FROM schema_migrations ORDER BY version") {
            (version: $0.int(at: 0), checksum: $0.text(at: 1) ?? "")
        }
    }

    func transaction<T>(_ body: () throws -> T) throws -> T {
        try db.transaction(.immediate, body)
    }

    func recordedChecksum(version: Int) throws -> String? {
        try db.queryOne("SELECT checksum FROM schema_migrations WHERE version = ?", version) { $0.text(at: 0) ?? "" }
    }

    func execute(_ sql: String) throws(SQLiteError) {
        try db.execute(sql)
    }

    func message(of failure: SQLiteError) -> String { failure.message }

    func record(_ migration: Migration) throws {
        try db.run(
            """
            INSERT INTO schema_migrations (version, name, checksum, applied_at)
            VALUES (?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
            """,
            migration.version, migration.name, migration.checksum
        )
    }
}
