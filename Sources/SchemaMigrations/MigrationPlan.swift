/// What both migrators decide before they apply anything: the known migrations by version
/// (two sharing one is refused), and every recorded migration checked against this
/// binary's copy, so an edited migration or a database from a newer build stops the run
/// before it can do harm.
public enum MigrationPlan {
    public static func byVersion(_ migrations: [Migration]) throws(MigrationError) -> [Int: Migration] {
        var byVersion: [Int: Migration] = [:]
        for migration in migrations {
            guard byVersion.updateValue(migration, forKey: migration.version) == nil else {
                throw MigrationError.duplicateVersion(migration.version)
            }
        }
        return byVersion
    }

    /// The migrations not yet applied, in version order, once every `applied` record
    /// matches a known migration's checksum.
    public static func pending(
        _ known: [Int: Migration], applied: [(version: Int, checksum: String)]
    ) throws(MigrationError) -> [Migration] {
        for record in applied {
            guard let migration = known[record.version] else {
                throw MigrationError.unknownAppliedMigration(version: record.version)
            }
            guard migration.checksum == record.checksum else {
                throw MigrationError.checksumMismatch(version: migration.version, name: migration.name)
            }
        }
        let appliedVersions = Set(applied.map(\.version))
        return known.values.filter { !appliedVersions.contains($0.version) }.sorted { $0.version < $1.version }
    }
}
