import SQLite
import Synchronization

/// The SQLite database of one Latchkey instance: one writer connection that serialises
/// every write, and read-only connections handed out per thread (WAL readers never wait
/// for the writer).
public final class Database: Sendable {
    public let path: String
    private let writer: Mutex<Connection>

    /// Opens (creating if needed) and migrates the database at `path`.
    public init(path: String) throws {
        self.path = path
        let connection = try Connection(path: path, mode: .readWrite)
        try Migrator(migrations: EmbeddedMigrations.all).migrate(connection)
        writer = Mutex(connection)
    }

    /// A new read-only connection; its owner keeps it on one thread.
    public func openReader() throws -> Connection {
        try Connection(path: path, mode: .readOnly)
    }

    /// Runs `body` with the writer connection, one caller at a time.
    public func write<T>(_ body: (Connection) throws -> T) throws -> T {
        try writer.withLock { try body($0) }
    }

    /// Folds the WAL back into the database file, as on a clean shutdown.
    public func checkpoint() throws {
        try writer.withLock { try $0.checkpoint() }
    }
}
