/// Brings a database's schema up to date from a list of numbered migrations, the same way
/// on SQLite and on PostgreSQL (each driver adds `migrate(_:)` for its own connection).
///
/// Applied migrations are recorded in `schema_migrations` with a checksum of their SQL.
/// Before applying anything, every recorded migration is checked against this binary's copy
/// (`MigrationPlan`), so an edited migration or a database from a newer build stops the run
/// before it can do harm. Each pending migration is applied in its own transaction together
/// with its record, so it lands completely or not at all.
public struct Migrator: Sendable {
    public let migrations: [Migration]

    public init(migrations: [Migration]) {
        self.migrations = migrations
    }

    /// Applies the pending migrations in version order; returns the versions applied now.
    @discardableResult
    public func migrate(_ database: some MigrationDatabase) throws -> [Int] {
        let known = try MigrationPlan.byVersion(migrations)
        var appliedNow: [Int] = []
        for migration in try MigrationPlan.pending(known, applied: database.records()) where try apply(migration, to: database) {
            appliedNow.append(migration.version)
        }
        return appliedNow
    }

    /// Returns false when another process applied the migration between the check in
    /// `migrate` and this transaction taking its lock.
    private func apply<Database: MigrationDatabase>(_ migration: Migration, to database: Database) throws -> Bool {
        try database.transaction {
            if let checksum = try database.recordedChecksum(version: migration.version) {
                guard checksum == migration.checksum else {
                    throw MigrationError.checksumMismatch(version: migration.version, name: migration.name)
                }
                return false
            }
            do throws(Database.Failure) {
                try database.execute(migration.sql)
            } catch {
                throw MigrationError.failed(version: migration.version, name: migration.name, message: database.message(of: error))
            }
            try database.record(migration)
            return true
        }
    }
}
