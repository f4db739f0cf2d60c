import PostgreSQL
import Testing

extension PostgreSQLTests {
    @Suite struct TransactionTests {
        struct Abort: Error, Equatable {}

        let schema: TestSchema
        let db: Connection

        init() throws {
            schema = try TestSchema()
            db = try schema.connect()
            try db.execute("CREATE TABLE jobs (id INTEGER PRIMARY KEY, done INTEGER NOT NULL DEFAULT 0)")
        }

        @Test func commitsWhenTheBodyReturns() throws {
            let result = try db.transaction { db in
                try db.run("INSERT INTO jobs (id) VALUES (?)", 1)
                return "value"
            }
            #expect(result == "value")
            #expect(!db.isInTransaction)
            #expect(try schema.connect().count("jobs") == 1)
        }

        @Test func rollsBackAndRethrowsWhenTheBodyThrows() throws {
            #expect(throws: Abort()) {
                try db.transaction(.serializable) { db in
                    try db.run("INSERT INTO jobs (id) VALUES (?)", 1)
                    throw Abort()
                }
            }
            #expect(!db.isInTransaction)
            #expect(try db.count("jobs") == 0)
        }

        @Test func aCaughtStatementErrorStillRollsBack() throws {
            let error = #expect(throws: PostgreSQLError.self) {
                try db.transaction { db in
                    try db.run("INSERT INTO jobs (id) VALUES (?)", 1)
                    // The duplicate aborts the transaction; swallowing the error cannot make
                    // the first insert commit.
                    _ = try? db.run("INSERT INTO jobs (id) VALUES (?)", 1)
                }
            }
            #expect(error?.sqlstate == "25P02")
            #expect(!db.isInTransaction)
            #expect(try db.count("jobs") == 0)
        }

        @Test func savepointRollsBackOnlyItsOwnPart() throws {
            var failures: [Int] = []
            try db.transaction { db in
                for id in [1, 2, 2, 3] {
                    do {
                        try db.savepoint("job") { db in
                            try db.run("INSERT INTO jobs (id) VALUES (?)", id)
                            try db.run("UPDATE jobs SET done = 1 WHERE id = ?", id)
                        }
                    } catch PostgreSQLError.uniqueViolation {
                        failures.append(id)
                    }
                }
            }
            #expect(failures == [2])
            #expect(try db.query("SELECT id, done FROM jobs ORDER BY id") { [$0.int(at: 0), $0.int(at: 1)] } == [[1, 1], [2, 1], [3, 1]])
        }

        @Test func savepointRethrowsTheBodysErrorAndKeepsTheTransactionUsable() throws {
            try db.transaction { db in
                try db.run("INSERT INTO jobs (id) VALUES (?)", 1)
                #expect(throws: Abort()) {
                    try db.savepoint("part") { db in
                        try db.run("INSERT INTO jobs (id) VALUES (?)", 2)
                        throw Abort()
                    }
                }
                try db.run("INSERT INTO jobs (id) VALUES (?)", 3)
            }
            #expect(try db.query("SELECT id FROM jobs ORDER BY id") { $0.int(at: 0) } == [1, 3])
        }

        @Test func changesCountsRowsOfTheLastWrite() throws {
            #expect(try db.run("INSERT INTO jobs (id) VALUES (?), (?), (?)", 1, 2, 3) == 3)
            #expect(db.changes == 3)
            #expect(try db.run("UPDATE jobs SET done = 1 WHERE id >= ?", 2) == 2)
            #expect(db.changes == 2)
            // A read does not overwrite it, as on SQLite.
            _ = try db.query("SELECT id FROM jobs") { $0.int(at: 0) }
            #expect(db.changes == 2)
            #expect(try db.run("DELETE FROM jobs WHERE id = ?", 99) == 0)
            #expect(db.changes == 0)
            try db.execute("DELETE FROM jobs")
            #expect(db.changes == 3)
            #expect(try db.run("CREATE INDEX jobs_done ON jobs (done)") == 0)
        }
    }

    @Suite struct StatementCacheTests {
        @Test func theSameSQLIsPreparedOncePerConnection() throws {
            let schema = try TestSchema()
            let db = try schema.connect()
            try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)")
            let before = db.cachedStatementCount
            for id in 1...5 {
                try db.run("INSERT INTO t (id) VALUES (?)", id)
            }
            #expect(db.cachedStatementCount == before + 1)
            // The server holds one prepared statement for that text, rewritten to $1.
            let prepared = try db.queryOne(
                "SELECT count(*) FROM pg_prepared_statements WHERE statement = ?", "INSERT INTO t (id) VALUES ($1)"
            ) { $0.int(at: 0) }
            #expect(prepared == 1)
            #expect(try db.count("t") == 5)
            // Another connection has a cache (and server-side statements) of its own.
            let other = try schema.connect()
            #expect(other.cachedStatementCount == 0)
            #expect(try other.queryOne("SELECT count(*) FROM pg_prepared_statements") { $0.int(at: 0) } == 1)
        }
    }
}
