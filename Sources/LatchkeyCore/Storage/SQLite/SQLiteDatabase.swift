internal import SQLite
internal import SchemaMigrations

/// SQLite's side of `Database`: one writer that serialises and batches every write,
/// read-only connections per event loop (WAL readers never wait for the writer), a small
/// pool of readers for work off the loops, and the WAL checkpointer.
final class SQLiteDatabase: Sendable {
    let path: String
    let writer: SQLiteWriter
    private let readers: SQLiteReaderPool
    private let checkpointer: WALCheckpointer

    /// Opens (creating if needed) and migrates the database at `path`.
    init(path: String) throws {
        self.path = path
        try DatabaseFile.restrictToOwner(path)
        let connection = try StoreError.translating { try Connection(path: path, mode: .readWrite) }
        try Migrator(migrations: EmbeddedMigrations.all).migrate(connection)
        writer = try StoreError.translating { try SQLiteWriter(connection: connection, path: path) }
        readers = SQLiteReaderPool { try SQLiteDatabase.openReader(path) }
        checkpointer = try WALCheckpointer(path: path)
    }

    /// A connection of the reader's own, for the one thread that keeps it.
    func makeReader() throws -> StoreReader {
        StoreReader(.connection(try StoreError.translating { try SQLiteDatabase.openReader(path) }))
    }

    private static func openReader(_ path: String) throws -> StoreConnection {
        StoreConnection(.sqlite(try Connection(path: path, mode: .readOnly)))
    }

    func read<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        try readers.read(body)
    }

    /// Finishes queued writes, stops the writer and folds the WAL back into the database
    /// file, as on a clean shutdown.
    func close() throws {
        writer.stop()
        checkpointer.stop()
        let connection = try Connection(path: path, mode: .readWrite)
        try connection.checkpoint()
    }
}
