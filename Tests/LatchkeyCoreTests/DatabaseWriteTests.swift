import Foundation
@testable import LatchkeyCore
import Synchronization
import Testing

@Suite struct DatabaseWriteTests {
    private func makeDatabase(_ backend: StoreBackend) async throws -> ScratchDatabase {
        let scratch = try ScratchDatabase(backend)
        try await scratch.database.write { db in
            try db.execute("CREATE TABLE items (name TEXT PRIMARY KEY)")
            try db.execute("CREATE TABLE counters (id TEXT PRIMARY KEY, value BIGINT NOT NULL)")
            try db.run("INSERT INTO counters (id, value) VALUES (?, ?)", "c", 0)
        }
        return scratch
    }

    private func names(_ database: Database) throws -> [String] {
        try database.read { db in try db.query("SELECT name FROM items ORDER BY name") { $0.text(at: 0) ?? "" } }
    }

    @Test(arguments: StoreBackend.allCases)
    func concurrentWritesAllCommit(_ backend: StoreBackend) async throws {
        let scratch = try await makeDatabase(backend)
        defer { scratch.close() }
        let database = scratch.database
        try await inParallel(200) { index in
            try await database.write { db in try db.run("INSERT INTO items VALUES (?)", "item-\(index)") }
        }
        #expect(try scratch.count("items") == 200)
    }

    /// One batch for sure: a first job holds the writer (the lane, on PostgreSQL: the same
    /// ordering key) while the others queue behind it.
    @Test(arguments: StoreBackend.allCases)
    func aFailingWriteRollsBackAloneAndOthersInItsBatchCommit(_ backend: StoreBackend) async throws {
        let scratch = try await makeDatabase(backend)
        defer { scratch.close() }
        let database = scratch.database
        try await database.write { db in try db.run("INSERT INTO items VALUES ('taken')") }
        let outcomes = Outcomes()
        let done = AsyncStream<Void>.makeStream()
        func submit(_ label: String, _ body: @escaping @Sendable (StoreConnection) throws -> Void) {
            database.submitWrite(body, orderingKey: "batch") { result in
                outcomes.results.withLock { $0[label] = result }
                done.continuation.yield()
            }
        }
        submit("holder") { _ in _ = usleep(200_000) }
        submit("good") { db in try db.run("INSERT INTO items VALUES ('fresh')") }
        submit("bad") { db in
            try db.run("INSERT INTO items VALUES ('half-done')")
            try db.run("INSERT INTO items VALUES ('taken')")  // UNIQUE violation
        }
        // Bounded: the stream ends after 20 s whatever has arrived.
        let deadline = Task {
            try? await Task.sleep(for: .seconds(20))
            done.continuation.finish()
        }
        var iterator = done.stream.makeAsyncIterator()
        for _ in 0..<3 { await iterator.next() }
        deadline.cancel()
        let results = outcomes.results.withLock { $0 }
        #expect((try? results["good"]?.get()) != nil)
        // The domain sees the storage failure in its own terms, not SQLite's or PostgreSQL's.
        #expect(throws: StoreError.conflict) { try results["bad"]?.get() }
        #expect(try names(database) == ["fresh", "taken"])
    }

    /// Two writes that read a row, then write it from what they read: on PostgreSQL they run
    /// side by side on two writers, one fails to serialize and is run again unseen; no
    /// update is lost and neither caller hears of it.
    @Test(arguments: StoreBackend.allCases)
    func readThenWriteRacesAreRetriedWithoutLosingAnUpdate(_ backend: StoreBackend) async throws {
        let scratch = try await makeDatabase(backend)
        defer { scratch.close() }
        let database = scratch.database
        try await inParallel(2) { _ in
            try await database.write { db in
                let value = try db.queryOne("SELECT value FROM counters WHERE id = ?", "c") { $0.int64(at: 0) } ?? -1
                usleep(100_000)  // the other write reads the same value meanwhile
                try db.run("UPDATE counters SET value = ? WHERE id = ?", value + 1, "c")
            }
        }
        let value = try database.read { db in try db.queryOne("SELECT value FROM counters WHERE id = ?", "c") { $0.int64(at: 0) } }
        #expect(value == 2)
    }

    /// When a batch's transaction is lost mid-way (here a job ends it itself, as SQLite does
    /// on a full disk), no caller hears "done" for a write that was rolled back, and none
    /// is told twice (which would crash). SQLite's own failure mode.
    @Test func aLostTransactionIsReportedToEveryCallerWhoseWriteItTookAlong() async throws {
        let scratch = try await makeDatabase(.sqlite)
        defer { scratch.close() }
        let database = scratch.database
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
        let stored = Set(try names(database))
        for (index, succeeded) in outcomes {
            #expect(succeeded == stored.contains("item-\(index)"), "job \(index): reported \(succeeded)")
        }
        #expect(outcomes[20] == false)
    }

    private struct TestFailure: Error {}

    private final class Outcomes: Sendable {
        let results = Mutex<[String: Result<Void, any Error>]>([:])
    }

    @Test func closeCheckpointsTheWAL() async throws {
        let path = NSTemporaryDirectory() + "latchkey-writer-\(UUID().uuidString).sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try Database(path: path)
        try await database.write { db in try db.execute("CREATE TABLE items (name TEXT PRIMARY KEY)") }
        try await database.write { db in try db.run("INSERT INTO items VALUES ('x')") }
        try database.close()
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        #expect(walSize == 0)
    }
}
