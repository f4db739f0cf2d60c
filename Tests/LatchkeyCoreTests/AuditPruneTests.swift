@testable import LatchkeyCore
import Testing

@Suite struct AuditPruneTests {
    /// More old entries than one pruning write takes: every one of them goes, over several
    /// writes, and nothing inside the retention is touched.
    @Test(arguments: StoreBackend.allCases)
    func pruningDeletesEveryOldEntryInBatchesAndKeepsTheRecentOnes(_ backend: StoreBackend) async throws {
        let scratch = try ScratchDatabase(backend)
        defer { scratch.close() }
        let database = scratch.database
        let now = UnixTime.now()
        let old = AuditLog.pruneBatch * 2 + 123
        try await database.write { db in
            for index in 0..<old {
                try AuditStore.append(.login, user: "old-\(index)", now: now - 40 * 86_400 - Int64(index), on: db)
            }
            for index in 0..<3 {
                try AuditStore.append(.login, user: "recent-\(index)", now: now - 86_400, on: db)
            }
        }
        let deleted = try await AuditLog(database: database).prune(olderThanDays: 30)
        #expect(deleted == old)
        let left = try database.read { db in try AuditStore.entries(user: nil, since: 0, limit: 100, on: db) }
        #expect(left.map(\.userID) == ["recent-0", "recent-1", "recent-2"])
    }
}
