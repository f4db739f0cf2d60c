import Foundation
@testable import LatchkeyCore
import SQLite
import Testing

@Suite struct EmbeddedMigrationsTests {
    private static let migrationsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("migrations")

    @Test func binaryCarriesExactlyTheMigrationFiles() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.migrationsDirectory.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        let onDisk = try files.map { name in
            Migration.parse(fileName: name, sql: try String(contentsOf: Self.migrationsDirectory.appendingPathComponent(name), encoding: .utf8))
        }
        #expect(!onDisk.isEmpty)
        #expect(onDisk == EmbeddedMigrations.all, "run scripts/embed-migrations after changing migrations/")
    }

    @Test func migrationsApplyToAnEmptyDatabase() throws {
        let path = NSTemporaryDirectory() + "latchkey-core-\(UUID().uuidString).sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try Database(path: path)
        #expect(Readiness.check(try database.makeReader()))
        let tables = try database.read { db in try db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { $0.text(at: 0) ?? "" } }
        #expect(tables.contains("users"))
        #expect(tables.contains("sessions"))
        #expect(tables.contains("display_names"))
    }
}
