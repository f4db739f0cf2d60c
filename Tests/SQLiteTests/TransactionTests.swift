import SQLite
import Testing

extension SQLiteTests {
    @Suite struct TransactionTests {
        struct Abort: Error, Equatable {}

        let dir: TemporaryDirectory
        let db: Connection

        init() throws {
            dir = try TemporaryDirectory()
            db = try Connection(path: dir.file("db.sqlite"))
            try db.execute("CREATE TABLE t (x INTEGER UNIQUE)")
        }

        @Test(arguments: [TransactionKind.immediate, .deferred])
        func commitsAndReturnsTheBodysValue(kind: TransactionKind) throws {
            let result = try db.transaction(kind) {
                try db.run("INSERT INTO t VALUES (?)", 1)
                try db.run("INSERT INTO t VALUES (?)", 2)
                return "done"
            }
            #expect(result == "done")
            #expect(!db.isInTransaction)
            let other = try Connection(path: dir.file("db.sqlite"), mode: .readOnly)
            #expect(try other.count("t") == 2)
        }

        @Test func rollsBackAndRethrowsTheBodysError() throws {
            #expect(throws: Abort()) {
                try db.transaction {
                    try db.run("INSERT INTO t VALUES (?)", 1)
                    throw Abort()
                }
            }
            #expect(!db.isInTransaction)
            #expect(try db.count("t") == 0)
        }

        @Test func rollsBackEarlierWritesWhenALaterStatementFails() throws {
            let error = #expect(throws: SQLiteError.self) {
                try db.transaction {
                    try db.run("INSERT INTO t VALUES (?)", 1)
                    try db.run("INSERT INTO t VALUES (?)", 1)
                }
            }
            #expect(error?.kind == "uniqueViolation")
            #expect(!db.isInTransaction)
            #expect(try db.count("t") == 0)
        }

        @Test func connectionIsUsableAfterARollback() throws {
            _ = try? db.transaction { throw Abort() }
            try db.transaction { try db.run("INSERT INTO t VALUES (?)", 5) }
            #expect(try db.query("SELECT x FROM t") { $0.int(at: 0) } == [5])
        }

        // try? makes a thrown error end the child normally (a failed test); only a trap passes.
        @Test func nestedTransactionTraps() async {
            await #expect(processExitsWith: .failure) {
                let db = try? Connection(path: ":memory:")
                try? db?.transaction { try db?.transaction {} }
            }
        }
    }
}
