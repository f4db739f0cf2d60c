import Foundation
@testable import LatchkeyCore
import SQLite
import SchemaMigrations
import SQLValues
import Testing

/// The presence sweep runs on the one writer every 5 s: it finds the dead instances first
/// and only their holds, never reading every stream's hold.
@Suite struct PresenceSweepPlanTests {
    @Test func sqliteReadsOnlyTheHoldsOfDeadInstances() throws {
        let path = NSTemporaryDirectory() + "latchkey-plans-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let connection = try SQLite.Connection(path: path)
        try Migrator(migrations: EmbeddedMigrations.all).migrate(connection)
        let plan = try connection.query("EXPLAIN QUERY PLAN " + PresenceHoldStore.heldByDeadInstances, values: [.integer(1)]) { $0.text(at: 3) ?? "" }
        #expect(plan.contains("SEARCH presence_holds USING INDEX presence_holds_by_instance (instance_id=?)"), "\(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN presence_holds") || $0.hasPrefix("SCAN h") }, "\(plan)")
    }
}
