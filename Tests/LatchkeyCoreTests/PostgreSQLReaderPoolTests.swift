@testable import LatchkeyCore
import Testing

/// PostgreSQL's reader connections, which every read and every batch statement borrows.
@Suite struct PostgreSQLReaderPoolTests {
    static let settings = "SELECT current_setting('enable_seqscan') || ' ' || current_setting('plan_cache_mode')"

    /// Reads find their rows by key: the first connection (the migrator's) and every one
    /// opened later scan a table only where no index serves, and plan each statement once.
    @Test func everyReaderConnectionIsSetUpForReadsByKey() async throws {
        let scratch = try ScratchDatabase(.postgres)
        defer { scratch.close() }
        let show = { try scratch.database.read { db in try db.queryOne(Self.settings) { $0.text(at: 0) } ?? nil } }
        #expect(try show() == "off force_generic_plan")
        // Reads at once borrow more connections than the first one.
        let settings = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try scratch.database.read { db in
                        _ = try db.queryOne("SELECT pg_sleep(0.2)") { _ in () }
                        return try db.queryOne(Self.settings) { $0.text(at: 0) } ?? nil
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(settings.count == 8 && settings.allSatisfy { $0 == "off force_generic_plan" }, "\(settings)")
    }
}
