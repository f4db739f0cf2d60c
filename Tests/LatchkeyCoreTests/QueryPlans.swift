import Foundation
@testable import LatchkeyCore
import PostgreSQL
import SQLite
import SchemaMigrations
import SQLValues
import TestSupport

/// The plans of statements on freshly migrated databases, for tests that a statement is
/// served by an index rather than by reading its table.
enum QueryPlans {
    /// Runs `body` with a function that answers SQLite's plan of a statement (the detail
    /// lines of EXPLAIN QUERY PLAN) with `values` bound, on a scratch file removed after.
    static func sqlite(_ body: (_ plan: (String, [SQLValue]) throws -> [String]) throws -> Void) throws {
        let path = NSTemporaryDirectory() + "latchkey-plans-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let connection = try SQLite.Connection(path: path)
        try Migrator(migrations: EmbeddedMigrations.all).migrate(connection)
        try body { sql, values in try connection.query("EXPLAIN QUERY PLAN " + sql, values: values) { $0.text(at: 3) ?? "" } }
    }

    /// The same on a scratch PostgreSQL database, with sequential scans priced out (its
    /// planner reads a table this small whole whatever indexes it has).
    static func postgres(_ body: (_ plan: (String, [SQLValue]) throws -> [String]) throws -> Void) throws {
        let scratch = try TestDatabase()
        defer { scratch.drop() }
        let connection = try PostgreSQL.Connection(url: scratch.url)
        defer { connection.close() }
        _ = try Migrator(migrations: EmbeddedMigrations.postgres).migrate(connection)
        try connection.execute("SET enable_seqscan = off")
        try body { sql, values in try connection.query("EXPLAIN (COSTS OFF) " + sql, values: values) { $0.text(at: 0) ?? "" } }
    }
}
