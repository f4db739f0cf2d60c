import Foundation
@testable import LatchkeyCore
import Testing

@Suite struct DatabaseWriteTests {
    private func makeDatabase() async throws -> (Database, String) {
        let path = NSTemporaryDirectory() + "latchkey-writer-\(UUID().uuidString).sqlite"
        let database = try Database(path: path)
        try await database.write { db in try db.execute("CREATE TABLE items (name TEXT PRIMARY KEY)") }
        return (database, path)
    }

    @Test func concurrentWritesAllCommit() async throws {
        let (database, path) = try await makeDatabase()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask { try await database.write { db in try db.run("INSERT INTO items VALUES (?)", "item-\(index)") } }
            }
            try await group.waitForAll()
        }
        let count = try database.read { db in try db.queryOne("SELECT count(*) FROM items") { $0.int(at: 0) } }
        #expect(count == 200)
    }

    @Test func aFailingWriteRollsBackAloneAndOthersInItsBatchCommit() async throws {
        let (database, path) = try await makeDatabase()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await database.write { db in try db.run("INSERT INTO items VALUES ('taken')") }
        let good = Task { try await database.write { db in try db.run("INSERT INTO items VALUES ('fresh')") } }
        let bad = Task {
            try await database.write { db in
                try db.run("INSERT INTO items VALUES ('half-done')")
                try db.run("INSERT INTO items VALUES ('taken')")  // UNIQUE violation
            }
        }
        try await good.value
        // The domain sees the storage failure in its own terms, not SQLite's.
        await #expect(throws: StoreError.conflict) { try await bad.value }
        let names = try database.read { db in try db.query("SELECT name FROM items ORDER BY name") { $0.text(at: 0) ?? "" } }
        #expect(names == ["fresh", "taken"])
    }

    /// When a batch's transaction is lost mid-way (here a job ends it itself, as SQLite does
    /// on a full disk), no caller hears "done" for a write that was rolled back, and none
    /// is told twice (which would crash).
    @Test func aLostTransactionIsReportedToEveryCallerWhoseWriteItTookAlong() async throws {
        let (database, path) = try await makeDatabase()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcomes = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for index in 0..<40 {
                group.addTask {
                    do {
                        try await database.write { db in
                            try db.run("INSERT INTO items VALUES (?)", "item-\(index)")
                            if index == 20 {
                                try db.execute("ROLLBACK")  // what SQLite does by itself on SQLITE_FULL
                                throw TestFailure()
                            }
                        }
                        return (index, true)
                    } catch {
                        return (index, false)
                    }
                }
            }
            return try await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }
        let stored = Set(try database.read { db in try db.query("SELECT name FROM items") { $0.text(at: 0) ?? "" } })
        for (index, succeeded) in outcomes {
            #expect(succeeded == stored.contains("item-\(index)"), "job \(index): reported \(succeeded)")
        }
        #expect(outcomes[20] == false)
    }

    private struct TestFailure: Error {}

    @Test func closeCheckpointsTheWAL() async throws {
        let (database, path) = try await makeDatabase()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await database.write { db in try db.run("INSERT INTO items VALUES ('x')") }
        try database.close()
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        #expect(walSize == 0)
    }
}
