/// Whether the database answers: a read of the migration table, cheap enough for `/readyz`.
public enum Readiness {
    public static func check(_ reader: StoreReader) -> Bool {
        (try? reader.read { db in try db.queryOne("SELECT max(version) FROM schema_migrations") { $0.int64(at: 0) } }) != nil
    }
}
