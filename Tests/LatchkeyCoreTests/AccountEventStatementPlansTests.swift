@testable import LatchkeyCore
import SQLValues
import Testing

/// migrations/0026: two statements every logout runs on the one writer read whole tables
/// (every account token ever made, the event feed's whole hour). Each is now served by an
/// index: the plans say so, on SQLite as it plans them and on PostgreSQL with sequential
/// scans priced out (its planner reads a table this small whole whatever indexes it has).
@Suite struct AccountEventStatementPlansTests {
    @Test func sqliteFindsTheRowsThroughIndexes() throws {
        try QueryPlans.sqlite { plan throws in
            #expect(try plan(AccountEventStore.voidLinksAskedBy, [.integer(1), .text("s1")]) == [
                "SEARCH account_tokens USING INDEX account_tokens_by_asking_session (asking_session=?)",
            ])
            #expect(try plan(AccountEventStore.pruneFeed, [.integer(1)]) == ["SEARCH account_events USING INDEX account_events_by_time (at<?)"])
        }
    }

    @Test func postgresqlFindsTheLinksThroughAnIndex() throws {
        try QueryPlans.postgres { plan throws in
            let lines = try plan(AccountEventStore.voidLinksAskedBy, [.integer(1), .text("s1")])
            // An index scan or a bitmap one, through the new index; before it, a sequential scan.
            #expect(lines.contains { $0.contains("Index Scan") && $0.contains("account_tokens_by_asking_session") }, "\(lines)")
            #expect(!lines.contains { $0.contains("Seq Scan") }, "\(lines)")
        }
    }
}
