public import SchemaMigrations

/// Brings a database's schema up to date from a list of numbered migrations.
///
/// Applied migrations are recorded in `schema_migrations` with a checksum of their SQL.
/// Before applying anything, every recorded migration is checked against this binary's copy,
/// so an edited migration or a database from a newer build stops the run before it can do
/// harm. Each pending migration is applied in its own IMMEDIATE transaction together with
/// its record, so it lands completely or not at all.
public struct Migrator: Sendable {
    public let migrations: [Migration]

    public init(migrations: [Migration]) {
        self.migrations = migrations
    }

    /// Applies the pending migrations in version order; returns the versions applied now.
    @discardableResult
    public func migrate(_ db: Connection) throws -> [Int] {
        let known = try MigrationPlan.byVersion(migrations)
        try db.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                checksum TEXT NOT NULL,
                applied_at TEXT NOT NULL
            )
            """)
        let applied = try db.query("SELECT version, checksum FROM schema_migrations ORDER BY version") {
            (version: $0.int(at: 0), checksum: $0.text(at: 1) ?? "")
        }
        var appliedNow: [Int] = []
        for migration in try MigrationPlan.pending(known, applied: applied) where try apply(migration, to: db) {
            appliedNow.append(migration.version)
        }
        return appliedNow
    }

    /// Returns false when another process applied the migration between the check above
    /// and this transaction taking the write lock.
    private func apply(_ migration: Migration, to db: Connection) throws -> Bool {
        try db.transaction(.immediate) {
            let alreadyApplied = try db.queryOne(
                "SELECT checksum FROM schema_migrations WHERE version = ?", migration.version
            ) { $0.text(at: 0) ?? "" }
            if let checksum = alreadyApplied {
                guard checksum == migration.checksum else {
                    throw MigrationError.checksumMismatch(version: migration.version, name: migration.name)
                }
                return false
            }
            do throws(SQLiteError) {
                try db.execute(migration.sql)
            } catch {
                throw MigrationError.failed(version: migration.version, name: migration.name, message: error.message)
            }
            try db.run(
                """
                INSERT INTO schema_migrations (version, name, checksum, applied_at)
                VALUES (?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
                """,
                migration.version, migration.name, migration.checksum
            )
            return true
        }
    }
}
