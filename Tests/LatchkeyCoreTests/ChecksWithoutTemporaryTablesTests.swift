import Foundation
@testable import LatchkeyCore
import SQLite
import SchemaMigrations
import Testing

/// migrations/0025: SQLite built a temporary B-tree for every row written to a table whose
/// CHECK was an IN list of three or more values (a sign-in's presence, a mail link's
/// token), and freed it again; the checks are now comparisons joined by OR. They refuse
/// what they refused, and a database from before keeps its rows.
@Suite struct ChecksWithoutTemporaryTablesTests {
    /// A fresh file, migrated up to `version`, removed by `close`.
    private static func database(upTo version: Int = .max) throws -> (connection: SQLite.Connection, close: () -> Void) {
        let path = NSTemporaryDirectory() + "latchkey-checks-\(UUID().uuidString).sqlite"
        let connection = try SQLite.Connection(path: path)
        try Migrator(migrations: EmbeddedMigrations.all.filter { $0.version <= version }).migrate(connection)
        return (connection, { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } })
    }

    private static let user = """
        INSERT INTO users (id, email_key, email, password_hash, created_at, updated_at)
        VALUES ('u1', 'ada@example.com', 'ada@example.com', 'x', 1, 1)
        """

    /// The opcodes SQLite would run for `sql`.
    private static func opcodes(_ sql: String, on connection: SQLite.Connection) throws -> [String] {
        try connection.query("EXPLAIN " + sql) { $0.text(at: 1) ?? "" }
    }

    /// The statements the writer runs for presence (`AccountStore.setPresence`) and for a
    /// mail link's token, as SQLite plans them: no temporary table among their steps.
    @Test func writesToPresenceAndAccountTokensBuildNoTemporaryTable() throws {
        let (connection, close) = try Self.database()
        defer { close() }
        let statements = [
            "INSERT INTO presence (user_id, status, last_seen) VALUES ('u1', 'online', 1) ON CONFLICT (user_id) DO UPDATE SET status = excluded.status, last_seen = excluded.last_seen",
            "UPDATE presence SET status = 'away' WHERE user_id = 'u1'",
            "INSERT INTO account_tokens (token_hash, user_id, purpose, created_at, expires_at) VALUES (x'01', 'u1', 'verify', 1, 2)",
        ]
        for sql in statements {
            let steps = try Self.opcodes(sql, on: connection)
            #expect(!steps.isEmpty)
            #expect(!steps.contains("OpenEphemeral"), "\(sql)")
        }
    }

    @Test func theChecksStillRefuseWhatTheyRefused() throws {
        let (connection, close) = try Self.database()
        defer { close() }
        try connection.execute(Self.user)
        try connection.run("INSERT INTO presence (user_id, status, last_seen) VALUES ('u1', 'away', 1)")
        #expect(throws: SQLiteError.constraint("CHECK constraint failed: status = 'online' OR status = 'away' OR status = 'offline'")) {
            try connection.run("UPDATE presence SET status = 'busy' WHERE user_id = 'u1'")
        }
        #expect(throws: SQLiteError.constraint("CHECK constraint failed: purpose = 'reset' OR purpose = 'verify' OR purpose = 'email_change'")) {
            try connection.run("INSERT INTO account_tokens (token_hash, user_id, purpose, created_at, expires_at) VALUES (x'01', 'u1', 'login', 1, 2)")
        }
        for purpose in ["reset", "verify", "email_change"] {
            try connection.run(
                "INSERT INTO account_tokens (token_hash, user_id, purpose, created_at, expires_at) VALUES (?, 'u1', ?, 1, 2)",
                Array(purpose.utf8), purpose)
        }
    }

    /// A database from before the migration keeps its presence and tokens, every column.
    @Test func anUpgradeKeepsTheRows() throws {
        let (connection, close) = try Self.database(upTo: 24)
        defer { close() }
        try connection.execute(Self.user)
        try connection.execute("""
            INSERT INTO presence (user_id, status, last_seen) VALUES ('u1', 'away', 7);
            INSERT INTO account_tokens (token_hash, user_id, purpose, new_email, asking_session, created_at, expires_at, used_at)
            VALUES (x'0102', 'u1', 'email_change', 'new@example.com', 's1', 3, 4, 5);
            """)
        let applied = try Migrator(migrations: EmbeddedMigrations.all.filter { $0.version <= 25 }).migrate(connection)
        #expect(applied == [25])
        let presence = try connection.queryOne("SELECT user_id, status, last_seen FROM presence") {
            "\($0.text(at: 0) ?? "") \($0.text(at: 1) ?? "") \($0.int64(at: 2))"
        }
        #expect(presence == "u1 away 7")
        let token = try connection.queryOne(
            "SELECT hex(token_hash), user_id, purpose, new_email, asking_session, created_at, expires_at, used_at FROM account_tokens"
        ) { row in (0..<8).map { row.text(at: $0) ?? "NULL" }.joined(separator: " ") }
        #expect(token == "0102 u1 email_change new@example.com s1 3 4 5")
        let indexes = try connection.query("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'account_tokens' AND sql IS NOT NULL") {
            $0.text(at: 0) ?? ""
        }
        #expect(indexes == ["account_tokens_by_user"])
    }
}
