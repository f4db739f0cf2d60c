/// One database as a migrator sees it: only what differs between SQLite and PostgreSQL
/// (the records table's column types, the transaction a migration runs in and its lock,
/// the clock's text form, the driver's error). `Migrator` does the rest, the same on both.
public protocol MigrationDatabase {
    /// The driver's error, whose message a failed migration reports.
    associatedtype Failure: Error

    /// `schema_migrations`, created when missing, then its records in version order.
    func records() throws -> [(version: Int, checksum: String)]

    /// Runs `body` in the transaction one migration is applied in, with whatever lock keeps
    /// other processes out of it until the end: committed when `body` returns, rolled back
    /// when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T

    /// The checksum recorded for `version`, or nil when it is not recorded.
    func recordedChecksum(version: Int) throws -> String?

    /// Runs a migration's SQL, a script of statements.
    func execute(_ sql: String) throws(Failure)

    /// The database's own words for `failure`: they name tables and columns, never a bound value.
    func message(of failure: Failure) -> String

    /// Records `migration` as applied now.
    func record(_ migration: Migration) throws
}
