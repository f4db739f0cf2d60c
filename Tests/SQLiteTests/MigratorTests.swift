import SQLite
import Testing
import SchemaMigrations

extension SQLiteTests {
    @Suite struct MigratorTests {
        static let initial = Migration(version: 1, name: "initial", sql: "CREATE TABLE accounts (id INTEGER PRIMARY KEY);")
        static let users = Migration(version: 2, name: "users", sql: """
            CREATE TABLE users (id INTEGER PRIMARY KEY, account_id INTEGER NOT NULL REFERENCES accounts (id));
            CREATE INDEX users_account ON users (account_id);
            """)
        static let sessions = Migration(version: 3, name: "sessions", sql: "CREATE TABLE sessions (id TEXT PRIMARY KEY);")

        let dir: TemporaryDirectory
        let db: Connection

        init() throws {
            dir = try TemporaryDirectory()
            db = try Connection(path: dir.file("db.sqlite"))
        }

        private func records() throws -> [(version: Int, name: String, checksum: String, appliedAt: String)] {
            try db.query("SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version") {
                ($0.int(at: 0), $0.text(at: 1) ?? "", $0.text(at: 2) ?? "", $0.text(at: 3) ?? "")
            }
        }

        private func schema() throws -> [String] {
            try db.query("SELECT type || ' ' || name FROM sqlite_schema ORDER BY type, name") { $0.text(at: 0) ?? "" }
        }

        @Test func appliesPendingMigrationsInVersionOrderAndRecordsThem() throws {
            let migrator = Migrator(migrations: [Self.users, Self.initial])
            #expect(try migrator.migrate(db) == [1, 2])
            #expect(try db.tableExists("accounts"))
            #expect(try db.tableExists("users"))
            let rows = try records()
            #expect(rows.map(\.version) == [1, 2])
            #expect(rows.map(\.name) == ["initial", "users"])
            #expect(rows.map(\.checksum) == [Self.initial.checksum, Self.users.checksum])
            for row in rows {
                #expect(row.checksum.count == 16)
                #expect(row.appliedAt.hasSuffix("Z") && row.appliedAt.contains("T"))
            }
        }

        @Test func rerunningAppliesNothing() throws {
            let migrator = Migrator(migrations: [Self.initial, Self.users])
            try migrator.migrate(db)
            let before = try records()
            #expect(try migrator.migrate(db) == [])
            #expect(try records().map(\.appliedAt) == before.map(\.appliedAt))
        }

        @Test func appliesOnlyTheNewMigrationLater() throws {
            try Migrator(migrations: [Self.initial, Self.users]).migrate(db)
            #expect(try Migrator(migrations: [Self.initial, Self.users, Self.sessions]).migrate(db) == [3])
            #expect(try records().map(\.version) == [1, 2, 3])
        }

        @Test func editedAppliedMigrationStopsTheRunAndChangesNothing() throws {
            try Migrator(migrations: [Self.initial, Self.users]).migrate(db)
            let schemaBefore = try schema()
            let edited = Migration(version: 2, name: "users", sql: Self.users.sql + "\nCREATE TABLE extra (x);")
            #expect(throws: MigrationError.checksumMismatch(version: 2, name: "users")) {
                try Migrator(migrations: [Self.initial, edited, Self.sessions]).migrate(db)
            }
            #expect(try schema() == schemaBefore)
            #expect(try records().map(\.version) == [1, 2])
            #expect(try !db.tableExists("sessions"))
        }

        @Test func unknownAppliedMigrationMeansTheDatabaseIsNewer() throws {
            try Migrator(migrations: [Self.initial, Self.users]).migrate(db)
            #expect(throws: MigrationError.unknownAppliedMigration(version: 2)) {
                try Migrator(migrations: [Self.initial, Self.sessions]).migrate(db)
            }
            #expect(try !db.tableExists("sessions"))
        }

        @Test func duplicateVersionsAreRefusedBeforeTouchingTheDatabase() throws {
            let twin = Migration(version: 1, name: "twin", sql: "CREATE TABLE twin (x);")
            #expect(throws: MigrationError.duplicateVersion(1)) {
                try Migrator(migrations: [Self.initial, twin]).migrate(db)
            }
            #expect(try schema() == [])
        }

        @Test func failingMigrationRollsBackCompletely() throws {
            let broken = Migration(version: 2, name: "broken", sql: """
                CREATE TABLE half_done (x INTEGER);
                INSERT INTO half_done VALUES (1);
                INSERT INTO missing_table VALUES (1);
                """)
            let error = #expect(throws: MigrationError.self) {
                try Migrator(migrations: [Self.initial, broken, Self.sessions]).migrate(db)
            }
            guard case .failed(version: 2, name: "broken", let cause)? = error else {
                Issue.record("expected .failed for 0002_broken, got \(String(describing: error))")
                return
            }
            #expect(cause.contains("missing_table"))
            #expect(try !db.tableExists("half_done"))
            #expect(try !db.tableExists("sessions"))
            #expect(try records().map(\.version) == [1])
            #expect(!db.isInTransaction)
            // Once fixed, the run picks up where it stopped.
            let fixed = Migration(version: 2, name: "broken", sql: "CREATE TABLE half_done (x INTEGER);")
            #expect(try Migrator(migrations: [Self.initial, fixed, Self.sessions]).migrate(db) == [2, 3])
        }

        @Test func checksumIsFNV1a64OfTheSQLText() {
            // Published FNV-1a 64-bit test vectors.
            #expect(Migration(version: 1, name: "x", sql: "").checksum == "cbf29ce484222325")
            #expect(Migration(version: 1, name: "x", sql: "a").checksum == "af63dc4c8601ec8c")
            #expect(Migration(version: 1, name: "x", sql: "foobar").checksum == "85944171f73967e8")
        }

        @Test func errorDescriptionsNameTheMigrationAndTheRemedy() {
            let mismatch = MigrationError.checksumMismatch(version: 2, name: "users").description
            #expect(mismatch.contains("0002_users"))
            #expect(mismatch.contains("edited after it was applied"))
            let unknown = MigrationError.unknownAppliedMigration(version: 7).description
            #expect(unknown.contains("0007"))
            #expect(unknown.contains("newer"))
            #expect(MigrationError.duplicateVersion(3).description.contains("0003"))
        }
    }

    @Suite struct MigrationParseTests {
        @Test(arguments: [
            ("0001_initial.sql", 1, "initial"),
            ("0012_add_users_table.sql", 12, "add_users_table"),
            ("migrations/0003_sessions.sql", 3, "sessions"),
            ("20240101_big_number.sql", 20_240_101, "big_number"),
        ])
        func parsesNumberedFileNames(fileName: String, version: Int, name: String) throws {
            let migration = try #require(Migration.parse(fileName: fileName, sql: "SELECT 1;"))
            #expect(migration.version == version)
            #expect(migration.name == name)
            #expect(migration.sql == "SELECT 1;")
        }

        @Test(arguments: [
            "README.md", "initial.sql", "0001.sql", "0001_.sql", "_initial.sql", "abc_initial.sql",
            "0001_initial.sql.bak", "0001_initial.SQL", "0000_zero.sql", "-001_negative.sql", "٠١_arabic_digits.sql",
        ])
        func rejectsOtherFileNames(fileName: String) {
            #expect(Migration.parse(fileName: fileName, sql: "") == nil)
        }
    }
}
