import Glibc
internal import PostgreSQL
internal import SchemaMigrations
internal import SQLite

/// `latchkey migrate-to postgres://…`: the SQLite database of one instance copied into an
/// empty PostgreSQL database, as one snapshot (a read transaction on SQLite) written as
/// one transaction (all of it or nothing), so several instances can take over from it.
/// Both schemas are brought to this binary's version first, so every table has the same
/// columns on both sides; rows keep their ids, and the identity columns continue after
/// the largest one copied.
public enum DatabaseTransfer {
    /// Copied in this order, each after the tables its rows refer to.
    static let copiedTables = [
        "users", "display_names", "presence", "sessions", "password_failures", "picture_uploads", "account_tokens", "mail_outbox",
        "audit_log", "imported_hash_parameters", "session_seed_key", "passkeys", "webauthn_user_handles",
        "totp_factors", "recovery_codes", "identities", "apple_refresh_tokens", "apple_revocations",
    ]
    /// Copied over the row the target's own migration made: the key the copied sessions'
    /// seeds are derived from, without which their refresh tokens would not verify (`RefreshSeeds`).
    static let replacedTables = ["session_seed_key"]
    /// Not copied: the migrations' record (the target keeps its own), the presence holds of
    /// the instance that stops (its streams end with it), and SQLite's account-event feed
    /// (PostgreSQL's is NOTIFY; what it carried has acted already), and the passkey
    /// ceremonies' challenges and the second factor's challenges (minutes long; a client
    /// asks again).
    static let skippedTables = [
        "schema_migrations", "presence_instances", "presence_holds", "account_events", "webauthn_challenges", "webauthn_spent_challenges",
        "mfa_challenges",
    ]
    /// Tables whose `id` PostgreSQL generates.
    static let identityTables = ["mail_outbox", "audit_log", "imported_hash_parameters", "apple_revocations"]

    public struct TargetNotEmpty: Error, CustomStringConvertible {
        public var description: String { "the PostgreSQL database already holds accounts: migrate-to only fills an empty one" }
    }

    /// Rows copied, by table. Throws `TargetNotEmpty` when the target has any user.
    public static func copy(sqliteAt path: String, toPostgres url: String) throws -> [(table: String, rows: Int)] {
        guard access(path, R_OK) == 0 else { throw DataDirectoryError(description: "no database at \(path)") }
        try Database(path: path).close()  // brought to this binary's migrations
        let source = try SQLite.Connection(path: path, mode: .readOnly)
        let target = try PostgreSQL.Connection(url: url)
        defer { target.close() }
        try Migrator(migrations: EmbeddedMigrations.postgres).migrate(target)
        let tables = try source.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") { $0.text(at: 0) ?? "" }
        let unknown = Set(tables).subtracting(copiedTables + skippedTables)
        guard unknown.isEmpty else { throw DataDirectoryError(description: "migrate-to does not know the tables \(unknown.sorted())") }
        return try source.transaction(.deferred) {
            try target.transaction { target in
                guard try target.queryOne("SELECT 1 FROM users LIMIT 1", row: { _ in true }) == nil else { throw TargetNotEmpty() }
                return try copiedTables.map { table in (table, try copyRows(of: table, from: source, to: target)) }
            }
        }
    }

    private static func copyRows(of table: String, from source: SQLite.Connection, to target: PostgreSQL.Connection) throws -> Int {
        let columns = try source.query("SELECT name FROM pragma_table_info(?)", table) { $0.text(at: 0) ?? "" }
        let list = columns.joined(separator: ", ")
        if replacedTables.contains(table) { try target.run("DELETE FROM \(table)") }
        let insert = "INSERT INTO \(table) (\(list)) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        let rows = try source.query("SELECT \(list) FROM \(table)") { row in
            try target.run(insert, values: (0..<columns.count).map { row.value(at: $0) })
        }
        if identityTables.contains(table) {
            // The next generated id follows the largest copied (or starts at 1).
            try target.run("SELECT setval(pg_get_serial_sequence('\(table)', 'id'), GREATEST(COALESCE(MAX(id), 0), 1), MAX(id) IS NOT NULL) FROM \(table)")
        }
        return rows.count
    }
}
