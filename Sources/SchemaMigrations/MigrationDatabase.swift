public import SQLValues

/// One database as a migrator sees it: only what differs between SQLite and PostgreSQL
/// (the records' version type and clock, the transaction a migration runs in and its lock,
/// the driver's error and calls). `Migrator` and the records (`MigrationRecords`) do the
/// rest, the same on both.
public protocol MigrationDatabase {
    /// The driver's error, whose message a failed migration reports.
    associatedtype Failure: Error

    /// The type of `schema_migrations.version` (a 64-bit integer).
    var versionColumnType: String { get }

    /// An SQL expression for the time now in UTC as text, with milliseconds and a trailing
    /// Z (`2024-05-01T12:00:00.000Z`): how every record says when it was applied.
    var nowAsText: String { get }

    /// Runs `body` in the transaction one migration is applied in, with whatever lock keeps
    /// other processes out of it until the end: committed when `body` returns, rolled back
    /// when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T

    /// Runs `body`, which creates the records table when missing and reads it, with
    /// whatever keeps that safe while other processes migrate too.
    func readingRecords<T>(_ body: () throws -> T) throws -> T

    /// Runs a migration's SQL, a script of statements.
    func execute(_ sql: String) throws(Failure)

    /// The database's own words for `failure`: they name tables and columns, never a bound value.
    func message(of failure: Failure) -> String

    /// Runs one statement with `values` bound to its `?` placeholders, discarding any rows.
    func run(_ sql: String, _ values: [SQLValue]) throws

    /// The rows of a query with `values` bound, each as its columns' values.
    func rows(_ sql: String, _ values: [SQLValue]) throws -> [[SQLValue]]
}
