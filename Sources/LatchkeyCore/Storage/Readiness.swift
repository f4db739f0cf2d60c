import SQLite

/// Whether the database answers: a read of the migration table, cheap enough for `/readyz`.
public enum Readiness {
    public static func check(_ reader: Connection) -> Bool {
        (try? reader.queryOne("SELECT max(version) FROM schema_migrations") { $0.int64(at: 0) }) != nil
    }
}
