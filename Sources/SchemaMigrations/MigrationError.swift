/// Why the migrator refused to run or stopped. Each description is one sentence that says
/// what is wrong and what to do about it.
public enum MigrationError: Error, Equatable, CustomStringConvertible {
    /// Two migrations given to the migrator share a version number.
    case duplicateVersion(Int)
    /// An applied migration's SQL differs from the copy in this binary.
    case checksumMismatch(version: Int, name: String)
    /// The database has a migration applied that this binary does not know: the database
    /// was migrated by a newer build.
    case unknownAppliedMigration(version: Int)
    /// A migration's SQL failed; its transaction was rolled back, leaving no trace of it.
    /// `message` is the database's own: it names tables and columns, never a bound value.
    case failed(version: Int, name: String, message: String)

    public var description: String {
        switch self {
        case .duplicateVersion(let version):
            return "two migrations share version \(Migration.displayName(version: version, name: nil)); "
                + "renumber one of them so every version is unique"
        case .checksumMismatch(let version, let name):
            return "migration \(Migration.displayName(version: version, name: name)) was edited after it was applied "
                + "(checksum differs); restore the original file and put the change in a new migration"
        case .unknownAppliedMigration(let version):
            return "the database has migration \(Migration.displayName(version: version, name: nil)) applied, "
                + "which this build does not know; the database is newer than this build, so run a newer build "
                + "or restore a backup taken before that migration"
        case .failed(let version, let name, let message):
            return "migration \(Migration.displayName(version: version, name: name)) failed and was rolled back "
                + "(\(message)); fix the migration's SQL and run again"
        }
    }
}
