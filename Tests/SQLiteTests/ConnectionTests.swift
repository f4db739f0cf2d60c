import CSQLite
import Foundation
import SQLite
import Testing

extension SQLiteTests {
    @Suite struct ConnectionTests {
        @Test func createsTheDatabaseFileWhenOpenedReadWrite() throws {
            let dir = try TemporaryDirectory()
            let path = dir.file("new.db")
            #expect(!FileManager.default.fileExists(atPath: path))
            let db = try Connection(path: path)
            try db.execute("CREATE TABLE t (x INTEGER)")
            #expect(FileManager.default.fileExists(atPath: path))
        }

        @Test func readWriteConnectionUsesWALAndFullSynchronous() throws {
            let dir = try TemporaryDirectory()
            let db = try Connection(path: dir.file("db.sqlite"))
            #expect(try db.queryOne("PRAGMA journal_mode") { $0.text(at: 0) } == "wal")
            // 2 is FULL (0 OFF, 1 NORMAL, 3 EXTRA).
            #expect(try db.queryOne("PRAGMA synchronous") { $0.int(at: 0) } == 2)
            #expect(try db.queryOne("PRAGMA foreign_keys") { $0.int(at: 0) } == 1)
            #expect(try db.queryOne("PRAGMA busy_timeout") { $0.int(at: 0) } == 5_000)
        }

        /// With memory statistics on, every allocation SQLite makes takes a process-wide
        /// mutex (see `csqlite_config_memstatus_off`); opening a connection turns them off
        /// first, so SQLite counts nothing however much it allocates.
        @Test func sqliteKeepsNoMemoryStatistics() throws {
            let dir = try TemporaryDirectory()
            let db = try Connection(path: dir.file("db.sqlite"))
            try db.execute("CREATE TABLE t (x TEXT); INSERT INTO t SELECT hex(randomblob(100)) FROM (SELECT 1 UNION SELECT 2);")
            #expect(try db.queryOne("SELECT count(*) FROM t") { $0.int(at: 0) } == 2)
            var current: Int64 = -1
            var highest: Int64 = -1
            #expect(sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &current, &highest, 0) == SQLITE_OK)
            #expect(current == 0)
            #expect(highest == 0)
        }

        @Test func readOnlyConnectionSeesWALModeAndForeignKeys() throws {
            let dir = try TemporaryDirectory()
            let path = dir.file("db.sqlite")
            let writer = try Connection(path: path)
            try writer.execute("CREATE TABLE t (x INTEGER)")
            let reader = try Connection(path: path, mode: .readOnly)
            #expect(try reader.queryOne("PRAGMA journal_mode") { $0.text(at: 0) } == "wal")
            #expect(try reader.queryOne("PRAGMA foreign_keys") { $0.int(at: 0) } == 1)
        }

        @Test func readOnlyConnectionRefusesWrites() throws {
            let dir = try TemporaryDirectory()
            let path = dir.file("db.sqlite")
            let writer = try Connection(path: path)
            try writer.execute("CREATE TABLE t (x INTEGER)")
            let reader = try Connection(path: path, mode: .readOnly)
            let error = #expect(throws: SQLiteError.self) {
                try reader.run("INSERT INTO t (x) VALUES (?)", 1)
            }
            #expect(error?.kind == "readOnly")
            #expect(try writer.count("t") == 0)
        }

        @Test func readOnlyOpenOfAMissingFileFails() throws {
            let dir = try TemporaryDirectory()
            let path = dir.file("missing.db")
            #expect(throws: SQLiteError.self) {
                _ = try Connection(path: path, mode: .readOnly)
            }
            #expect(!FileManager.default.fileExists(atPath: path))
        }

        @Test func readerSeesCommittedDataWithoutWaitingForAnOpenWriteTransaction() throws {
            let dir = try TemporaryDirectory()
            let path = dir.file("db.sqlite")
            let writer = try Connection(path: path)
            try writer.execute("CREATE TABLE t (x INTEGER)")
            try writer.run("INSERT INTO t (x) VALUES (?)", 1)
            // A zero busy timeout: if the reader had to wait for the writer it would fail at once.
            let reader = try Connection(path: path, mode: .readOnly, busyTimeoutMilliseconds: 0)

            try writer.execute("BEGIN IMMEDIATE")
            try writer.run("INSERT INTO t (x) VALUES (?)", 2)
            let start = ContinuousClock.now
            let seenDuringWrite = try reader.query("SELECT x FROM t ORDER BY x") { $0.int(at: 0) }
            #expect(ContinuousClock.now - start < .seconds(1))
            #expect(seenDuringWrite == [1])
            try writer.execute("COMMIT")

            #expect(try reader.query("SELECT x FROM t ORDER BY x") { $0.int(at: 0) } == [1, 2])
        }

        @Test func secondWriterGetsBusyWhileTheFirstHoldsTheWriteLock() throws {
            let dir = try TemporaryDirectory()
            let path = dir.file("db.sqlite")
            let first = try Connection(path: path)
            try first.execute("CREATE TABLE t (x INTEGER)")
            let second = try Connection(path: path, busyTimeoutMilliseconds: 0)
            try first.execute("BEGIN IMMEDIATE")
            let error = #expect(throws: SQLiteError.self) {
                try second.transaction { try second.run("INSERT INTO t (x) VALUES (1)") }
            }
            #expect(error?.kind == "busy")
            try first.execute("ROLLBACK")
            #expect(!second.isInTransaction)
        }

        @Test func reportsChangesAndLastInsertRowID() throws {
            let dir = try TemporaryDirectory()
            let db = try Connection(path: dir.file("db.sqlite"))
            try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, x INTEGER)")
            try db.run("INSERT INTO t (x) VALUES (?)", 10)
            #expect(db.lastInsertRowID == 1)
            try db.run("INSERT INTO t (x) VALUES (?)", 20)
            #expect(db.lastInsertRowID == 2)
            try db.run("UPDATE t SET x = x + 1")
            #expect(db.changes == 2)
        }

        @Test func checkpointTruncatesTheWAL() throws {
            let dir = try TemporaryDirectory()
            let path = dir.file("db.sqlite")
            let db = try Connection(path: path)
            try db.execute("CREATE TABLE t (x BLOB)")
            try db.run("INSERT INTO t (x) VALUES (?)", [UInt8](repeating: 7, count: 10_000))
            let walSize = { (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? -1 }
            #expect(walSize() > 0)
            try db.checkpoint()
            #expect(walSize() == 0)
            #expect(try db.count("t") == 1)
        }

        @Test func executeRunsMultiStatementScripts() throws {
            let dir = try TemporaryDirectory()
            let db = try Connection(path: dir.file("db.sqlite"))
            try db.execute("""
                CREATE TABLE a (x INTEGER);
                CREATE TABLE b (y INTEGER);
                INSERT INTO a VALUES (1); INSERT INTO a VALUES (2);
                """)
            #expect(try db.count("a") == 2)
            #expect(try db.tableExists("b"))
        }

        @Test func syntaxErrorIsThrownAsOther() throws {
            let dir = try TemporaryDirectory()
            let db = try Connection(path: dir.file("db.sqlite"))
            let error = #expect(throws: SQLiteError.self) {
                _ = try db.prepare("SELEC 1")
            }
            #expect(error?.kind == "other")
            #expect(error?.message.contains("syntax error") == true)
        }

        @Test func doubleQuotedStringsAreNotLiterals() throws {
            let dir = try TemporaryDirectory()
            let db = try Connection(path: dir.file("db.sqlite"))
            try db.execute("CREATE TABLE t (x TEXT)")
            #expect(throws: SQLiteError.self) {
                try db.run(#"SELECT * FROM t WHERE x = "not-a-column""#)
            }
        }

        // Errors are swallowed with try? inside these bodies, so a thrown error ends the child
        // process normally and fails the test; only a trap passes.
        @Test func prepareGivenTwoStatementsTraps() async {
            await #expect(processExitsWith: .failure) {
                let db = try? Connection(path: ":memory:")
                _ = try? db?.prepare("SELECT 1; SELECT 2")
            }
        }

        @Test func bindingTheWrongNumberOfValuesTraps() async {
            await #expect(processExitsWith: .failure) {
                let db = try? Connection(path: ":memory:")
                try? db?.run("SELECT ?, ?", 1)
            }
        }

        @Test func columnIndexOutOfRangeTraps() async {
            await #expect(processExitsWith: .failure) {
                _ = try? Connection(path: ":memory:").queryOne("SELECT 1") { $0.int(at: 1) }
            }
        }
    }
}
