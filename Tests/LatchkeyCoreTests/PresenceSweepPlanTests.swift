@testable import LatchkeyCore
import Testing

/// The presence sweep runs on the one writer every 5 s: it finds the dead instances first
/// and only their holds, never reading every stream's hold.
@Suite struct PresenceSweepPlanTests {
    @Test func sqliteReadsOnlyTheHoldsOfDeadInstances() throws {
        try QueryPlans.sqlite { plan throws in
            let lines = try plan(PresenceHoldStore.heldByDeadInstances, [.integer(1)])
            #expect(lines.contains("SEARCH presence_holds USING INDEX presence_holds_by_instance (instance_id=?)"), "\(lines)")
            #expect(!lines.contains { $0.hasPrefix("SCAN presence_holds") || $0.hasPrefix("SCAN h") }, "\(lines)")
        }
    }
}
