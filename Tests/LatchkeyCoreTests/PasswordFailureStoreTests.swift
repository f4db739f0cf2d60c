import Foundation
@testable import LatchkeyCore
import Testing

@Suite struct PasswordFailureStoreTests {

    @Test(arguments: StoreBackend.allCases)
    func failuresCountPerScopeWithinTheWindowAndStartAfreshAfterIt(_ backend: StoreBackend) async throws {
        let scratch = try ScratchDatabase(backend)
        defer { scratch.close() }
        let database = scratch.database
        try await database.write { db in
            for second in [100, 200, 300] as [Int64] {
                try PasswordFailureStore.recordFailure(accountKey: "ada@example.com", scope: "10.0.0.1", now: second, window: 900, on: db)
            }
            try PasswordFailureStore.recordFailure(accountKey: "ada@example.com", scope: "*", now: 100, window: 900, on: db)
        }
        let inside = try database.read { db in
            try PasswordFailureStore.failures(accountKey: "ada@example.com", scope: "10.0.0.1", now: 500, window: 900, on: db)
        }
        #expect(inside == FailureWindow(count: 3, start: 100))
        let elsewhere = try database.read { db in
            try PasswordFailureStore.failures(accountKey: "ada@example.com", scope: "10.0.0.2", now: 500, window: 900, on: db)
        }
        #expect(elsewhere.count == 0, "another address has its own count")
        let after = try database.read { db in
            try PasswordFailureStore.failures(accountKey: "ada@example.com", scope: "10.0.0.1", now: 1000, window: 900, on: db)
        }
        #expect(after.count == 0, "the lock lifts when the window has passed")
    }

    @Test(arguments: StoreBackend.allCases)
    func aFailureAfterTheWindowOpensANewOneThatCountsFromOne(_ backend: StoreBackend) async throws {
        let scratch = try ScratchDatabase(backend)
        defer { scratch.close() }
        let database = scratch.database
        let windows = try await database.write { db -> [FailureWindow] in
            try [100, 200, 1000, 1100].map { (second: Int64) in
                try PasswordFailureStore.recordFailure(accountKey: "ada@example.com", scope: "*", now: second, window: 900, on: db)
                return try PasswordFailureStore.failures(accountKey: "ada@example.com", scope: "*", now: second, window: 900, on: db)
            }
        }
        #expect(windows == [
            FailureWindow(count: 1, start: 100), FailureWindow(count: 2, start: 100),
            FailureWindow(count: 1, start: 1000), FailureWindow(count: 2, start: 1000),
        ])
    }

    @Test(arguments: StoreBackend.allCases)
    func pruningDropsExpiredWindowsSoTheTableStaysSmall(_ backend: StoreBackend) async throws {
        let scratch = try ScratchDatabase(backend)
        defer { scratch.close() }
        let database = scratch.database
        let remaining = try await database.write { db -> Int in
            for index in 0..<500 {
                try PasswordFailureStore.recordFailure(accountKey: "made-up-\(index)@example.com", scope: "*", now: 100, window: 900, on: db)
            }
            try PasswordFailureStore.recordFailure(accountKey: "recent@example.com", scope: "*", now: 1500, window: 900, on: db)
            try PasswordFailureStore.prune(olderThan: 1500 - 900, on: db)
            return try db.queryOne("SELECT count(*) FROM password_failures") { $0.int(at: 0) } ?? -1
        }
        #expect(remaining == 1)
    }
}

extension PasswordFailureStoreTests {
    /// Failed passwords counted from many requests at once (each an upsert that reads the
    /// window first) all count, on PostgreSQL's concurrent writers too.
    @Test(arguments: StoreBackend.allCases)
    func concurrentFailuresAllCount(_ backend: StoreBackend) async throws {
        let scratch = try ScratchDatabase(backend)
        defer { scratch.close() }
        let database = scratch.database
        try await inParallel(20) { _ in
            try await database.write { db in
                try PasswordFailureStore.recordFailure(accountKey: "ada@example.com", scope: "*", now: 100, window: 900, on: db)
            }
        }
        let window = try database.read { db in
            try PasswordFailureStore.failures(accountKey: "ada@example.com", scope: "*", now: 200, window: 900, on: db)
        }
        #expect(window == FailureWindow(count: 20, start: 100))
    }
}

@Suite struct PasswordChecksInFlightTests {
    @Test func attemptsUnderWayCountTowardEveryKeyAllOrNone() {
        let inFlight = PasswordChecksInFlight()
        let ada = [PasswordChecksInFlight.Claim(key: "ada", allowance: 2), PasswordChecksInFlight.Claim(key: "10.0.0.1", allowance: 3)]
        #expect(inFlight.reserve(ada) == nil)
        #expect(inFlight.reserve(ada) == nil)
        #expect(inFlight.reserve(ada)?.key == "ada", "2 under way = the allowance")
        let bob = [PasswordChecksInFlight.Claim(key: "bob", allowance: 2), PasswordChecksInFlight.Claim(key: "10.0.0.1", allowance: 3)]
        #expect(inFlight.reserve(bob) == nil, "the refused claim took no place at the address")
        #expect(inFlight.reserve(bob)?.key == "10.0.0.1", "the address is full now")
        inFlight.release(ada)
        #expect(inFlight.reserve(ada) == nil)
    }
}
