import Foundation
import Glibc
import PostgreSQL
import Testing
import TestSupport

extension PostgreSQLTests {
    @Suite struct ErrorTests {
        let schema: TestSchema
        let db: Connection

        init() throws {
            schema = try TestSchema()
            db = try schema.connect()
            try db.execute("""
                CREATE TABLE accounts (id BIGINT PRIMARY KEY, email TEXT NOT NULL CONSTRAINT accounts_email_key UNIQUE,
                                       age INTEGER CONSTRAINT accounts_age_check CHECK (age >= 0));
                CREATE TABLE sessions (id BIGINT PRIMARY KEY, account_id BIGINT NOT NULL
                                       CONSTRAINT sessions_account_fkey REFERENCES accounts (id));
                """)
        }

        @Test func uniqueViolationNamesTheConstraintAndNeverTheValue() throws {
            let email = "ada.secret@example.com"
            try db.run("INSERT INTO accounts (id, email) VALUES (?, ?)", 1, email)
            let error = #expect(throws: PostgreSQLError.self) {
                try db.run("INSERT INTO accounts (id, email) VALUES (?, ?)", 2, email)
            }
            guard case .uniqueViolation(let constraint, let message)? = error else {
                Issue.record("expected a unique violation, got \(String(describing: error))")
                return
            }
            #expect(constraint == "accounts_email_key")
            #expect(message.contains("accounts_email_key"))
            // The server's DETAIL says `Key (email)=(ada.secret@example.com) already exists`.
            #expect(!"\(error!)".contains("ada.secret"))
            #expect(!"\(error!)".contains("example.com"))
            #expect(!error!.message.contains("ada.secret"))
        }

        @Test func foreignKeyAndOtherConstraintsAreTyped() throws {
            let foreignKey = #expect(throws: PostgreSQLError.self) {
                try db.run("INSERT INTO sessions (id, account_id) VALUES (?, ?)", 1, 424_242)
            }
            #expect(foreignKey?.kind == "foreignKeyViolation")
            if case .foreignKeyViolation(let constraint, _)? = foreignKey { #expect(constraint == "sessions_account_fkey") }
            #expect(foreignKey.map { "\($0)".contains("424242") } == false)

            let check = #expect(throws: PostgreSQLError.self) {
                try db.run("INSERT INTO accounts (id, email, age) VALUES (?, ?, ?)", 1, "x@example.com", -5)
            }
            #expect(check == .constraint(sqlstate: "23514", constraint: "accounts_age_check", message: check?.message ?? ""))
            #expect(check.map { "\($0)".contains("x@example.com") } == false)

            let notNull = #expect(throws: PostgreSQLError.self) {
                try db.run("INSERT INTO accounts (id, email) VALUES (?, ?)", 1, nil as String?)
            }
            #expect(notNull?.kind == "constraint")
            #expect(notNull?.sqlstate == "23502")
        }

        @Test func syntaxErrorIsOtherWithItsSQLState() throws {
            let error = #expect(throws: PostgreSQLError.self) { try db.execute("SELEC 1") }
            #expect(error?.sqlstate == "42601")
            let missing = #expect(throws: PostgreSQLError.self) { try db.run("DELETE FROM nowhere WHERE id = ?", 1) }
            #expect(missing?.sqlstate == "42P01")
            // A failed prepare is not cached: the same SQL fails the same way again.
            let again = #expect(throws: PostgreSQLError.self) { try db.run("DELETE FROM nowhere WHERE id = ?", 1) }
            #expect(again?.sqlstate == "42P01")
        }

        @Test func serializationFailureIsTyped() throws {
            let other = try schema.connect()
            try db.execute("CREATE TABLE doctors (id INTEGER PRIMARY KEY, on_call INTEGER NOT NULL); INSERT INTO doctors VALUES (1, 1), (2, 1)")
            // Write skew: each transaction sees two doctors on call and takes one off.
            try other.execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
            #expect(try other.queryOne("SELECT count(*) FROM doctors WHERE on_call = ?", 1) { $0.int(at: 0) } == 2)
            let error = #expect(throws: PostgreSQLError.self) {
                try db.transaction(.serializable) { db in
                    #expect(try db.queryOne("SELECT count(*) FROM doctors WHERE on_call = ?", 1) { $0.int(at: 0) } == 2)
                    try db.run("UPDATE doctors SET on_call = 0 WHERE id = ?", 2)
                    try other.run("UPDATE doctors SET on_call = 0 WHERE id = ?", 1)
                    try other.execute("COMMIT")
                }
            }
            #expect(error?.kind == "serializationFailure")
            #expect(!db.isInTransaction)
            #expect(try db.query("SELECT on_call FROM doctors ORDER BY id") { $0.int(at: 0) } == [0, 1])
        }

        @Test func deadlockIsTyped() throws {
            let other = try schema.connect()
            try db.execute("CREATE TABLE locks (id INTEGER PRIMARY KEY, n INTEGER NOT NULL); INSERT INTO locks VALUES (1, 0), (2, 0)")
            // Bounded waits: the deadlock check runs after deadlock_timeout (1 s); lock_timeout
            // ends any wait that somehow outlasts it.
            for connection in [db, other] {
                try connection.execute("SET lock_timeout = '20s'")
                try connection.execute("BEGIN")
            }
            try db.run("UPDATE locks SET n = n + 1 WHERE id = ?", 1)
            try other.run("UPDATE locks SET n = n + 1 WHERE id = ?", 2)
            let connection = db
            let first = Background { try connection.run("UPDATE locks SET n = n + 1 WHERE id = ?", 2) }
            let second = Result { try other.run("UPDATE locks SET n = n + 1 WHERE id = ?", 1) }
            let firstOutcome = try #require(first.wait(seconds: 30))
            let errors = [firstOutcome, second].compactMap { outcome -> PostgreSQLError? in
                guard case .failure(let error) = outcome else { return nil }
                return error as? PostgreSQLError
            }
            #expect(errors.map(\.kind) == ["deadlock"])
            try db.execute("ROLLBACK")
            try other.execute("ROLLBACK")
        }

        @Test func statementTimeoutIsQueryCanceled() throws {
            try db.execute("SET statement_timeout = 100")
            let error = #expect(throws: PostgreSQLError.self) {
                try db.queryOne("SELECT pg_sleep(?)", 10) { _ in true }
            }
            #expect(error?.kind == "queryCanceled")
            #expect(!db.isBroken)
        }

        @Test func closedPortIsCannotConnectWithoutThePassword() throws {
            let port = try Self.closedPort()
            let error = #expect(throws: PostgreSQLError.self) {
                _ = try Connection(url: "postgres://latchkey:hunter2-secret@127.0.0.1:\(port)/latchkey")
            }
            #expect(error?.kind == "cannotConnect")
            #expect(error.map { "\($0)".contains("hunter2") } == false)
        }

        @Test func wrongPasswordIsCannotConnectWithoutThePassword() throws {
            let url = try TestCluster.url()
            // postgres://user:PASSWORD@host...: the password sits between the user's colon and the @.
            let authority = try #require(url.range(of: "://")).upperBound
            let at = try #require(url[authority...].firstIndex(of: "@"), "the cluster URL has no user and password")
            let colon = try #require(url[authority..<at].firstIndex(of: ":"), "the cluster URL has no password")
            let wrong = url.replacingCharacters(in: url.index(after: colon)..<at, with: "wrong-secret")
            let error = #expect(throws: PostgreSQLError.self) { _ = try Connection(url: wrong) }
            #expect(error?.kind == "cannotConnect")
            #expect(error.map { "\($0)".contains("wrong-secret") } == false)
        }

        @Test func malformedURLIsCannotConnectWithoutThePassword() throws {
            let error = #expect(throws: PostgreSQLError.self) {
                _ = try Connection(url: "postgres://latchkey:pass%zzword@127.0.0.1:1/latchkey")
            }
            #expect(error?.kind == "cannotConnect")
            #expect(error.map { "\($0)".contains("zzword") } == false)
        }

        @Test func terminatedSessionIsConnectionLostAndResetReconnects() throws {
            try db.run("INSERT INTO accounts (id, email) VALUES (?, ?)", 1, "a@example.com")
            let admin = try schema.connect()
            let pid = db.backendProcessID
            #expect(try admin.queryOne("SELECT pg_terminate_backend(?)", Int(pid)) { $0.bool(at: 0) } == true)
            // The cached statement's next run finds the session gone.
            let error = #expect(throws: PostgreSQLError.self) {
                try db.queryOne("SELECT email FROM accounts WHERE id = ?", 1) { $0.text(at: 0) }
            }
            #expect(error?.kind == "connectionLost")
            #expect(db.isBroken)
            try db.reset()
            #expect(!db.isBroken)
            #expect(db.backendProcessID != pid)
            #expect(try db.queryOne("SELECT email FROM accounts WHERE id = ?", 1) { $0.text(at: 0) } == "a@example.com")
        }

        @Test func closedConnectionIsBroken() throws {
            let connection = try schema.connect()
            #expect(!connection.isBroken)
            connection.close()
            #expect(connection.isBroken)
        }

        /// A port nothing listens on: bound to get a free number, then released.
        static func closedPort() throws -> Int {
            let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            try #require(descriptor >= 0)
            defer { Glibc.close(descriptor) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                    Glibc.bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
                }
            }
            try #require(bound)
            return Int(UInt16(bigEndian: address.sin_port))
        }
    }
}
