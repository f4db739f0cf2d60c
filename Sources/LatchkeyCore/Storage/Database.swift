internal import SQLite

/// The SQLite database of one Latchkey instance: one writer that serialises and batches
/// every write, read-only connections per event loop (WAL readers never wait for the
/// writer), and a small pool of readers for work off the loops.
public final class Database: Sendable {
    public let path: String
    private let writer: DatabaseWriter
    private let readers: ReaderPool
    private let checkpointer: WALCheckpointer

    /// Opens (creating if needed) and migrates the database at `path`.
    public init(path: String) throws {
        self.path = path
        try DatabaseFile.restrictToOwner(path)
        let connection = try StoreError.translating { try Connection(path: path, mode: .readWrite) }
        try Migrator(migrations: EmbeddedMigrations.all).migrate(connection)
        writer = DatabaseWriter(connection: connection)
        readers = ReaderPool { try Database.openReader(path) }
        checkpointer = try WALCheckpointer(path: path)
    }

    /// A reader for one thread to keep (an event loop), see `StoreReader`.
    public func makeReader() throws -> StoreReader {
        StoreReader(connection: try StoreError.translating { try Database.openReader(path) })
    }

    private static func openReader(_ path: String) throws -> StoreConnection {
        StoreConnection(.sqlite(try Connection(path: path, mode: .readOnly)))
    }

    /// Runs `body` in the writer's next batch; returns once that batch is durable.
    func write<T: Sendable>(_ body: @escaping @Sendable (StoreConnection) throws -> T) async throws -> T {
        do {
            return try await writer.write(body)
        } catch {
            throw StoreError.translating(error)
        }
    }

    /// Runs `body` in the writer's next batch and calls `completion` on the writer thread
    /// once that batch is durable: for callers that answer from there without a task hop.
    func submitWrite<T: Sendable>(
        _ body: @escaping @Sendable (StoreConnection) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        writer.submit(body) { result in completion(result.mapError { StoreError.translating($0) }) }
    }

    /// Jobs per commit and commit durations since start.
    public var writeStatistics: (batchSizes: Histogram, commitSeconds: Histogram) { writer.statistics.withLock { $0 } }

    /// Runs `body` on a pooled read-only connection.
    func read<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        try StoreError.translating { try readers.read(body) }
    }

    /// Finishes queued writes, stops the writer and folds the WAL back into the database
    /// file, as on a clean shutdown.
    public func close() throws {
        writer.stop()
        checkpointer.stop()
        let connection = try Connection(path: path, mode: .readWrite)
        try connection.checkpoint()
    }
}
