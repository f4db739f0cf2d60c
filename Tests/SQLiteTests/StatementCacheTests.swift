import SQLite
import Testing

extension SQLiteTests {
    @Suite struct StatementCacheTests {
        let dir: TemporaryDirectory
        let db: Connection

        init() throws {
            dir = try TemporaryDirectory()
            db = try Connection(path: dir.file("db.sqlite"))
            try db.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3);")
        }

        @Test func sameSQLReturnsTheSameStatement() throws {
            let first = try db.cached("SELECT x FROM t ORDER BY x")
            let second = try db.cached("SELECT x FROM t ORDER BY x")
            let other = try db.cached("SELECT x FROM t ORDER BY x DESC")
            #expect(first === second)
            #expect(first !== other)
        }

        /// The cache hashes a statement's length and ending only (`StatementCacheKey`): two
        /// texts alike in both must still be told apart by the whole text.
        @Test func textsOfOneLengthAndEndingGetStatementsOfTheirOwn() throws {
            let ending = " FROM t WHERE x >= 0 ORDER BY x LIMIT 1"
            let smallest = "SELECT   x" + ending
            let largest = "SELECT 9-x" + ending
            #expect(smallest.utf8.count == largest.utf8.count)
            #expect(try db.queryOne(smallest) { $0.int(at: 0) } == 1)
            #expect(try db.queryOne(largest) { $0.int(at: 0) } == 8)
            #expect(try db.cached(smallest) !== db.cached(largest))
        }

        @Test func cachedStatementComesBackResetToTheFirstRow() throws {
            let statement = try db.cached("SELECT x FROM t ORDER BY x")
            #expect(try statement.step())
            #expect(try statement.step())
            #expect(statement.int(at: 0) == 2)
            let again = try db.cached("SELECT x FROM t ORDER BY x")
            #expect(try again.step())
            #expect(again.int(at: 0) == 1)
        }

        @Test func cachedStatementComesBackWithBindingsCleared() throws {
            let statement = try db.cached("SELECT ?1")
            try statement.bind([.text("left over")])
            #expect(try statement.step())
            #expect(statement.text(at: 0) == "left over")
            let again = try db.cached("SELECT ?1")
            #expect(try again.step())
            #expect(again.isNull(at: 0))
        }

        @Test func queryHelpersReuseOneStatementAcrossCalls() throws {
            for x in 1...3 {
                #expect(try db.queryOne("SELECT x FROM t WHERE x = ?", x) { $0.int(at: 0) } == x)
            }
            let statement = try db.cached("SELECT x FROM t WHERE x = ?")
            try statement.bind([2])
            #expect(try statement.step())
            #expect(statement.int(at: 0) == 2)
        }

        @Test func helpersEndTheirReadSoAReaderSeesNewCommits() throws {
            let reader = try Connection(path: dir.file("db.sqlite"), mode: .readOnly)
            // queryOne stops after the first of three rows; if it left the statement mid-read,
            // the reader would keep its old snapshot.
            #expect(try reader.queryOne("SELECT x FROM t ORDER BY x") { $0.int(at: 0) } == 1)
            try db.run("INSERT INTO t VALUES (4)")
            #expect(try reader.queryOne("SELECT count(*) FROM t") { $0.int(at: 0) } == 4)
            #expect(try reader.queryOne("SELECT x FROM t ORDER BY x DESC") { $0.int(at: 0) } == 4)
        }
    }
}
