import PostgreSQL
import Testing
import SchemaMigrations

extension PostgreSQLTests {
    @Suite struct MigratorTests {
        static let initial = Migration(version: 1, name: "initial", sql: "CREATE TABLE accounts (id BIGINT PRIMARY KEY);")
        static let users = Migration(version: 2, name: "users", sql: """
            CREATE TABLE users (id BIGINT PRIMARY KEY, account_id BIGINT NOT NULL REFERENCES accounts (id));
            CREATE INDEX users_account ON users (account_id);
            """)
        static let sessions = Migration(version: 3, name: "sessions", sql: "CREATE TABLE sessions (id TEXT PRIMARY KEY);")

        let schema: TestSchema
        let db: Connection

        init() throws {
            schema = try TestSchema()
            db = try schema.connect()
        }

        private func records() throws -> [(version: Int, name: String, checksum: String, appliedAt: String)] {
            try db.query("SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version") {
                ($0.int(at: 0), $0.text(at: 1) ?? "", $0.text(at: 2) ?? "", $0.text(at: 3) ?? "")
            }
        }

        private func tables() throws -> [String] {
            try db.query(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = ? ORDER BY table_name", schema.name
            ) { $0.text(at: 0) ?? "" }
        }

        @Test func checksumIsTheSameFNV1aAsSQLites() {
            // Known FNV-1a 64 vectors: the SQLite migrator records exactly these for the same text.
            #expect(Migration(version: 1, name: "x", sql: "").checksum == "cbf29ce484222325")
            #expect(Migration(version: 1, name: "x", sql: "a").checksum == "af63dc4c8601ec8c")
            #expect(Migration(version: 1, name: "x", sql: "foobar").checksum == "85944171f73967e8")
        }

        @Test func appliesPendingMigrationsInVersionOrderAndRecordsThem() throws {
            let migrator = Migrator(migrations: [Self.users, Self.initial])
            #expect(try migrator.migrate(db) == [1, 2])
            #expect(try tables() == ["accounts", "schema_migrations", "users"])
            let rows = try records()
            #expect(rows.map(\.version) == [1, 2])
            #expect(rows.map(\.name) == ["initial", "users"])
            #expect(rows.map(\.checksum) == [Self.initial.checksum, Self.users.checksum])
            for row in rows {
                #expect(row.checksum.count == 16)
                #expect(row.appliedAt.hasSuffix("Z") && row.appliedAt.contains("T") && row.appliedAt.count == 24)
            }
        }

        @Test func rerunningAppliesNothingAndALaterMigrationAlone() throws {
            try Migrator(migrations: [Self.initial, Self.users]).migrate(db)
            let before = try records()
            #expect(try Migrator(migrations: [Self.initial, Self.users]).migrate(db) == [])
            #expect(try records().map(\.appliedAt) == before.map(\.appliedAt))
            #expect(try Migrator(migrations: [Self.initial, Self.users, Self.sessions]).migrate(db) == [3])
        }

        @Test func editedAppliedMigrationStopsTheRunAndChangesNothing() throws {
            try Migrator(migrations: [Self.initial, Self.users]).migrate(db)
            let edited = Migration(version: 2, name: "users", sql: Self.users.sql + "\nCREATE TABLE extra (x INTEGER);")
            #expect(throws: MigrationError.checksumMismatch(version: 2, name: "users")) {
                try Migrator(migrations: [Self.initial, edited, Self.sessions]).migrate(db)
            }
            #expect(try tables() == ["accounts", "schema_migrations", "users"])
            #expect(try records().map(\.version) == [1, 2])
        }

        @Test func unknownAppliedMigrationMeansTheDatabaseIsNewer() throws {
            try Migrator(migrations: [Self.initial, Self.users]).migrate(db)
            #expect(throws: MigrationError.unknownAppliedMigration(version: 2)) {
                try Migrator(migrations: [Self.initial, Self.sessions]).migrate(db)
            }
            #expect(try !tables().contains("sessions"))
        }

        @Test func duplicateVersionsAreRefused() throws {
            #expect(throws: MigrationError.duplicateVersion(1)) {
                try Migrator(migrations: [Self.initial, Migration(version: 1, name: "again", sql: "SELECT 1")]).migrate(db)
            }
            #expect(try tables() == [])
        }

        @Test func aFailingMigrationLeavesNoTraceAndKeepsTheEarlierOnes() throws {
            let broken = Migration(version: 2, name: "broken", sql: "CREATE TABLE half (id INTEGER); SELEC 1;")
            let error = #expect(throws: MigrationError.self) {
                try Migrator(migrations: [Self.initial, broken]).migrate(db)
            }
            guard case .failed(let version, let name, let cause)? = error else {
                Issue.record("expected .failed, got \(String(describing: error))")
                return
            }
            #expect(version == 2 && name == "broken")
            #expect(cause.contains("syntax error"), "the server's own message: \(cause)")
            #expect(try tables() == ["accounts", "schema_migrations"])
            #expect(try records().map(\.version) == [1])
        }

        @Test func twoMigratorsRacingApplyEachMigrationExactlyOnce() throws {
            // Each migration fails when applied twice (no IF NOT EXISTS), and the slow one
            // keeps the other migrator waiting on the lock while it runs.
            let migrations = [
                Self.initial, Self.users, Self.sessions,
                Migration(version: 4, name: "slow", sql: "SELECT pg_sleep(0.3); CREATE TABLE slow (id INTEGER);"),
                Migration(version: 5, name: "last", sql: "CREATE TABLE last (id INTEGER);"),
            ]
            for round in 0..<3 {
                let schema = try TestSchema()
                let first = try schema.connect()
                let second = try schema.connect()
                let racers = [first, second].map { connection in
                    Background { try Migrator(migrations: migrations).migrate(connection) }
                }
                let outcomes = try racers.map { try #require($0.wait(seconds: 60), "round \(round): a migrator did not finish") }
                let applied = try outcomes.map { try $0.get() }
                #expect((applied[0] + applied[1]).sorted() == [1, 2, 3, 4, 5], "round \(round): \(applied)")
                #expect(try first.queryOne("SELECT count(*) FROM schema_migrations") { $0.int(at: 0) } == 5)
            }
        }
    }
}
