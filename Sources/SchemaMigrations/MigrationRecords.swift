import SQLValues

/// `schema_migrations`, the record of what was applied, with a checksum of each
/// migration's SQL: one table and the same statements on either database.
extension MigrationDatabase {
    /// `schema_migrations`, created when missing, then its records in version order.
    func records() throws -> [(version: Int, checksum: String)] {
        try readingRecords {
            try execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version \(versionColumnType) PRIMARY KEY,
                    name TEXT NOT NULL,
                    checksum TEXT NOT NULL,
                    applied_at TEXT NOT NULL
                )
                """)
            return try rows("SELECT version, checksum FROM schema_migrations ORDER BY version", []).map {
                (version: $0[0].int, checksum: $0[1].string)
            }
        }
    }

    /// The checksum recorded for `version`, or nil when it is not recorded.
    func recordedChecksum(version: Int) throws -> String? {
        try rows("SELECT checksum FROM schema_migrations WHERE version = ?", [.integer(Int64(version))]).first.map { $0[0].string }
    }

    /// Records `migration` as applied now.
    func record(_ migration: Migration) throws {
        try run(
            """
            INSERT INTO schema_migrations (version, name, checksum, applied_at)
            VALUES (?, ?, ?, \(nowAsText))
            """,
            [.integer(Int64(migration.version)), .text(migration.name), .text(migration.checksum)]
        )
    }
}

extension SQLValue {
    /// A version column's value (0 for anything else, which no record holds).
    fileprivate var int: Int {
        if case .integer(let value) = self { Int(value) } else { 0 }
    }

    /// A text column's value ("" for NULL, as the records' readers always read it).
    fileprivate var string: String {
        if case .text(let value) = self { value } else { "" }
    }
}
