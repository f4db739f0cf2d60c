import Foundation
@testable import LatchkeyCore
import PostgreSQL
import SQLite
import SchemaMigrations
import SQLValues
import Testing
import TestSupport

/// migrations/0026: two statements every logout runs on the one writer read whole tables
/// (every account token ever made, the event feed's whole hour). Each is now served by an
/// index: the plans say so, on SQLite as it plans them and on PostgreSQL with sequential
/// scans priced out (its planner reads a table this small whole whatever indexes it has).
@Suite struct AccountEventStatementPlansTests {
    @Test func sqliteFindsTheRowsThroughIndexes() throws {
        let path = NSTemporaryDirectory() + "latchkey-plans-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let connection = try SQLite.Connection(path: path)
        try Migrator(migrations: EmbeddedMigrations.all).migrate(connection)
        let plan = { (sql: String, values: [SQLValue]) in try connection.query("EXPLAIN QUERY PLAN " + sql, values: values) { $0.text(at: 3) ?? "" } }
        #expect(try plan(AccountEventStore.voidLinksAskedBy, [.integer(1), .text("s1")]) == [
            "SEARCH account_tokens USING INDEX account_tokens_by_asking_session (asking_session=?)",
        ])
        #expect(try plan(AccountEventStore.pruneFeed, [.integer(1)]) == ["SEARCH account_events USING INDEX account_events_by_time (at<?)"])
    }

    @Test func postgresqlFindsTheLinksThroughAnIndex() throws {
        let scratch = try TestDatabase()
        defer { scratch.drop() }
        let connection = try PostgreSQL.Connection(url: scratch.url)
        defer { connection.close() }
        _ = try Migrator(migrations: EmbeddedMigrations.postgres).migrate(connection)
        try connection.execute("SET enable_seqscan = off")
        let plan = try connection.query("EXPLAIN (COSTS OFF) " + AccountEventStore.voidLinksAskedBy, 1, "s1") { $0.text(at: 0) ?? "" }
        // An index scan or a bitmap one, through the new index; before it, a sequential scan.
        #expect(plan.contains { $0.contains("Index Scan") && $0.contains("account_tokens_by_asking_session") }, "\(plan)")
        #expect(!plan.contains { $0.contains("Seq Scan") }, "\(plan)")
    }
}
