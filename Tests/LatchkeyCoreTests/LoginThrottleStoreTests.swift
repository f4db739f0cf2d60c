import Foundation
@testable import LatchkeyCore
import SQLite
import Testing

@Suite struct LoginThrottleStoreTests {
    @Test func failuresCountWithinTheWindowAndStartAfreshAfterIt() async throws {
        let path = NSTemporaryDirectory() + "latchkey-throttle-\(UUID().uuidString).sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try Database(path: path)
        try await database.write { db in
            for second in [100, 200, 300] as [Int64] {
                try LoginThrottleStore.recordFailure(emailKey: "ada@example.com", now: second, window: 900, on: db)
            }
        }
        let inside = try database.read { db in try LoginThrottleStore.failures(emailKey: "ada@example.com", now: 500, window: 900, on: db) }
        #expect(inside.count == 3)
        #expect(inside.windowStart == 100)
        let after = try database.read { db in try LoginThrottleStore.failures(emailKey: "ada@example.com", now: 1000, window: 900, on: db) }
        #expect(after.count == 0, "the lock lifts when the window has passed")
    }

    @Test func pruningDropsExpiredWindowsSoTheTableStaysSmall() async throws {
        let path = NSTemporaryDirectory() + "latchkey-throttle-\(UUID().uuidString).sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try Database(path: path)
        let remaining = try await database.write { db -> Int in
            for index in 0..<500 {
                try LoginThrottleStore.recordFailure(emailKey: "made-up-\(index)@example.com", now: 100, window: 900, on: db)
            }
            try LoginThrottleStore.recordFailure(emailKey: "recent@example.com", now: 1500, window: 900, on: db)
            try LoginThrottleStore.prune(olderThan: 1500 - 900, on: db)
            return try db.queryOne("SELECT count(*) FROM login_failures") { $0.int(at: 0) } ?? -1
        }
        #expect(remaining == 1)
    }
}

@Suite struct LoginsInFlightTests {
    @Test func attemptsUnderWayCountTowardTheLimit() {
        let inFlight = LoginsInFlight()
        #expect(inFlight.reserve("ada", storedFailures: 8, limit: 10))
        #expect(inFlight.reserve("ada", storedFailures: 8, limit: 10))
        #expect(!inFlight.reserve("ada", storedFailures: 8, limit: 10), "8 on record + 2 under way = the limit")
        #expect(inFlight.reserve("bob", storedFailures: 0, limit: 10), "another account is not affected")
        inFlight.release("ada")
        #expect(inFlight.reserve("ada", storedFailures: 8, limit: 10))
    }
}
