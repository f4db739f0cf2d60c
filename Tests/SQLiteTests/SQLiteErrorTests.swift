import Foundation
import SQLite
import Testing

extension SQLiteTests {
    @Suite struct SQLiteErrorTests {
        let dir: TemporaryDirectory
        let db: Connection

        init() throws {
            dir = try TemporaryDirectory()
            db = try Connection(path: dir.file("db.sqlite"))
            try db.execute("""
                CREATE TABLE users (
                    id INTEGER PRIMARY KEY,
                    email TEXT NOT NULL UNIQUE,
                    age INTEGER CHECK (age >= 0)
                );
                CREATE TABLE tokens (hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users (id));
                INSERT INTO users (id, email, age) VALUES (1, 'a@example.com', 30);
                INSERT INTO tokens (hash, user_id) VALUES ('h1', 1);
                """)
        }

        @Test func uniqueColumnViolationIsUniqueViolation() throws {
            let error = #expect(throws: SQLiteError.self) {
                try db.run("INSERT INTO users (email) VALUES (?)", "a@example.com")
            }
            #expect(error?.kind == "uniqueViolation")
            #expect(error?.message.contains("users.email") == true)
        }

        @Test func integerPrimaryKeyViolationIsUniqueViolation() throws {
            let error = #expect(throws: SQLiteError.self) {
                try db.run("INSERT INTO users (id, email) VALUES (?, ?)", 1, "b@example.com")
            }
            #expect(error?.kind == "uniqueViolation")
        }

        @Test func textPrimaryKeyViolationIsUniqueViolation() throws {
            let error = #expect(throws: SQLiteError.self) {
                try db.run("INSERT INTO tokens (hash, user_id) VALUES (?, ?)", "h1", 1)
            }
            #expect(error?.kind == "uniqueViolation")
        }

        @Test func uniqueViolationMatchesInACatchClause() throws {
            func insertReportingDuplicate() throws -> Bool {
                do {
                    try db.run("INSERT INTO users (email) VALUES (?)", "a@example.com")
                    return false
                } catch SQLiteError.uniqueViolation {
                    return true
                }
            }
            #expect(try insertReportingDuplicate())
        }

        @Test func notNullViolationIsConstraint() throws {
            let error = #expect(throws: SQLiteError.self) {
                try db.run("INSERT INTO users (email) VALUES (?)", nil)
            }
            #expect(error?.kind == "constraint")
        }

        @Test func checkViolationIsConstraint() throws {
            let error = #expect(throws: SQLiteError.self) {
                try db.run("INSERT INTO users (email, age) VALUES (?, ?)", "c@example.com", -1)
            }
            #expect(error?.kind == "constraint")
        }

        @Test func foreignKeyViolationIsConstraint() throws {
            let error = #expect(throws: SQLiteError.self) {
                try db.run("INSERT INTO tokens (hash, user_id) VALUES (?, ?)", "h2", 999)
            }
            #expect(error?.kind == "constraint")
        }

        @Test func errorTextNeverContainsBoundValues() throws {
            let secret = "s3cret-token-value"
            try db.run("INSERT INTO tokens (hash, user_id) VALUES (?, ?)", secret, 1)
            let error = #expect(throws: SQLiteError.self) {
                try db.run("INSERT INTO tokens (hash, user_id) VALUES (?, ?)", secret, 1)
            }
            #expect(error?.kind == "uniqueViolation")
            #expect(error.map { !String(describing: $0).contains(secret) } == true)
        }

        @Test func notADatabaseIsCorrupt() throws {
            let path = dir.file("garbage.db")
            try String(repeating: "this is not an sqlite file ", count: 100)
                .write(toFile: path, atomically: true, encoding: .utf8)
            let error = #expect(throws: SQLiteError.self) {
                let db = try Connection(path: path)
                try db.execute("SELECT * FROM sqlite_schema")
            }
            #expect(error?.kind == "corrupt")
        }
    }
}
