import Glibc
import SQLite
import Testing

extension SQLiteTests {
    /// The writer's own hold on the log it flushes after each commit.
    @Suite struct WriteAheadLogTests {
        let dir: TemporaryDirectory

        init() throws {
            dir = try TemporaryDirectory()
        }

        @Test func flushesTheLogOfALiveDatabase() throws {
            let db = try Connection(path: dir.file("db.sqlite"))
            try db.execute("PRAGMA synchronous = NORMAL")
            try db.execute("CREATE TABLE t (x INTEGER)")
            try db.run("INSERT INTO t VALUES (?)", 1)
            let log = WriteAheadLog(databasePath: dir.file("db.sqlite"))
            try log.flush()
            try db.run("INSERT INTO t VALUES (?)", 2)
            try log.flush()  // the descriptor kept from the first
        }

        /// A database with no log (never opened in WAL mode here) is a failure to report,
        /// never a flush that claims success.
        @Test func aMissingLogIsReportedWithTheReason() {
            let log = WriteAheadLog(databasePath: dir.file("absent.sqlite"))
            #expect {
                try log.flush()
            } throws: { error in
                let failure = error as? WriteAheadLog.FlushError
                return failure?.operation == "stat" && failure?.code == ENOENT
            }
        }

        /// The file replaced under the same name (as a change of journal mode would): the
        /// next flush opens the new file rather than syncing the old one.
        @Test func aReplacedLogIsOpenedAgain() throws {
            let db = try Connection(path: dir.file("db.sqlite"))
            try db.execute("CREATE TABLE t (x INTEGER)")
            let log = WriteAheadLog(databasePath: dir.file("db.sqlite"))
            try log.flush()
            #expect(log.openedFile == inode(of: dir.file("db.sqlite-wal")))
            let replacement = dir.file("replacement")
            close(open(replacement, O_CREAT | O_WRONLY, 0o600))
            #expect(rename(replacement, dir.file("db.sqlite-wal")) == 0)
            try log.flush()
            #expect(log.openedFile == inode(of: dir.file("db.sqlite-wal")))
        }

        private func inode(of path: String) -> UInt? {
            var status = stat()
            return stat(path, &status) == 0 ? UInt(status.st_ino) : nil
        }
    }
}
