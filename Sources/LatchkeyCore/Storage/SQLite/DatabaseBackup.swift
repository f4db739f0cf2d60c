import Glibc
internal import SQLite

/// `latchkey backup PATH`: a consistent copy of the database while a server runs and
/// writes (SQLite's online backup API on a connection of its own; see `Connection.backup`).
public enum DatabaseBackup {
    /// Refuses to overwrite anything at `destination`.
    public static func copy(databaseAt source: String, to destination: String) throws {
        guard access(destination, F_OK) != 0 else {
            throw DataDirectoryError(description: "\(destination) already exists; choose a new file for the backup")
        }
        guard access(source, R_OK) == 0 else { throw DataDirectoryError(description: "no database at \(source)") }
        do {
            try Connection(path: source, mode: .readOnly).backup(to: destination)
        } catch {
            unlink(destination)
            throw DataDirectoryError(description: "backup to \(destination) failed: \(error)")
        }
    }
}
