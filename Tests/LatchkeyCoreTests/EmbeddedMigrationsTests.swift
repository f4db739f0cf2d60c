import Foundation
@testable import LatchkeyCore
import PostgreSQL
import SQLite
import Testing
import SchemaMigrations

@Suite struct EmbeddedMigrationsTests {
    private static let migrationsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("migrations")

    /// The numbered `.sql` files of `directory`, sorted, with their text.
    private static func files(in directory: URL) throws -> [(name: String, sql: String)] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".sql") }.sorted().map { name in
            (name, try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8))
        }
    }

    @Test func binaryCarriesExactlyTheMigrationFiles() throws {
        let onDisk = try Self.files(in: Self.migrationsDirectory).map { Migration.parse(fileName: $0.name, sql: $0.sql) }
        #expect(!onDisk.isEmpty)
        #expect(onDisk == EmbeddedMigrations.all, "run scripts/embed-migrations after changing migrations/")
    }

    @Test func binaryCarriesExactlyThePostgreSQLMigrationFiles() throws {
        let directory = Self.migrationsDirectory.appendingPathComponent("postgres")
        let onDisk = try Self.files(in: directory).map { Migration.parse(fileName: $0.name, sql: $0.sql) }
        #expect(!onDisk.isEmpty)
        #expect(onDisk == EmbeddedMigrations.postgres, "run scripts/embed-migrations after changing migrations/postgres/")
        #expect(onDisk.map { $0?.version ?? 0 } == EmbeddedMigrations.all.map(\.version), "every migration exists for both databases")
    }

    @Test(arguments: StoreBackend.allCases)
    func migrationsApplyToAnEmptyDatabase(_ backend: StoreBackend) throws {
        let scratch = try ScratchDatabase(backend)
        defer { scratch.close() }
        #expect(Readiness.check(try scratch.database.makeReader()))
        let tables = try scratch.database.read(SchemaColumns.read).keys
        #expect(tables.contains("users"))
        #expect(tables.contains("sessions"))
        #expect(tables.contains("display_names"))
    }

    /// The two migration lists build the same schema: the same tables with the same
    /// columns, each as nullable on one as on the other, so the same store SQL fits both.
    @Test func bothDatabasesGetTheSameTablesAndColumns() throws {
        let sqlite = try ScratchDatabase(.sqlite)
        defer { sqlite.close() }
        let postgres = try ScratchDatabase(.postgres)
        defer { postgres.close() }
        let fromSQLite = try sqlite.database.read(SchemaColumns.read)
        let fromPostgres = try postgres.database.read(SchemaColumns.read)
        #expect(!fromSQLite.isEmpty)
        #expect(fromSQLite.keys.sorted() == fromPostgres.keys.sorted())
        for (table, columns) in fromSQLite.sorted(by: { $0.key < $1.key }) {
            #expect(columns == fromPostgres[table], "table \(table)")
        }
    }
}

/// A schema as tables, each a set of (column, nullable), read from the database's catalog.
/// `schema_migrations` is left out: each migrator makes its own, to its own design.
enum SchemaColumns {
    struct Column: Hashable, CustomStringConvertible {
        let name: String
        let nullable: Bool
        var description: String { name + (nullable ? " NULL" : " NOT NULL") }
    }

    static func read(_ db: StoreConnection) throws -> [String: Set<Column>] {
        var tables: [String: Set<Column>] = [:]
        switch db.dialect {
        case .sqlite:
            let names = try db.query(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'"
            ) { $0.text(at: 0) ?? "" }
            for name in names {
                // SQLite lets a non-integer PRIMARY KEY hold NULL (an old quirk kept for
                // compatibility); PostgreSQL never does, and no store writes one: a key column
                // counts as NOT NULL.
                tables[name] = Set(try db.query("SELECT name, \"notnull\", pk FROM pragma_table_info(?)", name) { row in
                    Column(name: row.text(at: 0) ?? "", nullable: !row.bool(at: 1) && !row.bool(at: 2))
                })
            }
        case .postgres:
            let rows = try db.query(
                """
                SELECT table_name, column_name, is_nullable FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name <> 'schema_migrations'
                """
            ) { ($0.text(at: 0) ?? "", Column(name: $0.text(at: 1) ?? "", nullable: $0.text(at: 2) == "YES")) }
            for (table, column) in rows { tables[table, default: []].insert(column) }
        }
        return tables
    }
}
