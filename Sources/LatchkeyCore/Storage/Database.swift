/// The database of one Latchkey instance, whichever the `database` setting names: SQLite
/// in the data directory (`SQLiteDatabase`), or PostgreSQL shared by several instances
/// (`PostgreSQLDatabase`). The stores see only `StoreConnection`s; this type's API is the
/// same for both.
public final class Database: Sendable {
    private enum Backend: Sendable {
        case sqlite(SQLiteDatabase)
        case postgres(PostgreSQLDatabase)
    }

    /// Where the data lives, safe to log: the SQLite file's path, or the PostgreSQL URL
    /// without its password.
    public let location: String
    private let backend: Backend

    /// Opens (creating if needed) and migrates the SQLite database at `path`.
    public init(path: String) throws {
        location = path
        backend = .sqlite(try SQLiteDatabase(path: path))
    }

    /// Connects to PostgreSQL and migrates it; `connections` is this instance's share of
    /// the server's connections, writers and readers together (see `PostgreSQLDatabase`).
    public init(postgresURL url: String, connections: Int) throws {
        location = DatabaseSetting.redacting(url)
        backend = .postgres(try PostgreSQLDatabase.connect(url: url, connections: connections, location: location))
    }

    /// The database `setting` names; SQLite's file is `latchkey.sqlite` in `dataDirectory`.
    public convenience init(_ setting: DatabaseSetting, dataDirectory: String, connections: Int) throws {
        switch setting {
        case .sqlite: try self.init(path: dataDirectory + "/latchkey.sqlite")
        case .postgres(let url): try self.init(postgresURL: url, connections: connections)
        }
    }

    /// Where a read waits on the network (PostgreSQL), how many reads can run at once;
    /// nil where reads are local (SQLite). Such reads must not run on an event loop.
    var networkReaderConnections: Int? {
        if case .postgres(let postgres) = backend { postgres.readers.capacity } else { nil }
    }

    /// The bus presence changes cross between the instances over PostgreSQL (LISTEN/NOTIFY);
    /// nil over SQLite, whose one instance keeps the bus in this process.
    var presenceBusBetweenInstances: (any PresenceBus)? {
        if case .postgres(let postgres) = backend { postgres.presenceBus } else { nil }
    }

    /// Starts hearing the account events other processes on this database commit (an admin
    /// command, another instance) and hands them to `bus`; returns what stops it. SQLite: a
    /// thread tails `account_events`; PostgreSQL: the presence bus's listener hears NOTIFY.
    func hearAccountEvents(on bus: AccountEventBus) throws -> @Sendable () -> Void {
        switch backend {
        case .sqlite(let sqlite):
            let tail = try SQLiteAccountEventTail(reader: try sqlite.makeReader(), bus: bus)
            return { tail.stop() }
        case .postgres(let postgres):
            postgres.presenceBus.forwardAccountEvents(to: bus)
            return {}
        }
    }

    /// A reader for one thread to keep (an event loop), see `StoreReader`.
    public func makeReader() throws -> StoreReader {
        switch backend {
        case .sqlite(let sqlite): try sqlite.makeReader()
        case .postgres(let postgres): StoreReader(.pool(postgres.readers))
        }
    }

    /// Runs `body` in a writer's next batch; returns once that batch is durable.
    func write<T: Sendable>(_ body: @escaping @Sendable (StoreConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            submitWrite(body) { continuation.resume(with: $0) }
        }
    }

    /// Runs `body` in a writer's next batch and calls `completion` on the writer's thread
    /// once that batch is durable (SQLite's flushing thread, `CommitFlusher`): for callers
    /// that answer from there without a task hop.
    /// Writes given the same `orderingKey` commit in the order they were submitted (on
    /// SQLite every write does; PostgreSQL's writers run side by side).
    func submitWrite<T: Sendable>(
        _ body: @escaping @Sendable (StoreConnection) throws -> T, orderingKey: String? = nil,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        let job = WriteJob(body) { result in completion(result.mapError { StoreError.translating($0) }) }
        switch backend {
        case .sqlite(let sqlite): sqlite.writer.submit(job)
        case .postgres(let postgres): postgres.writer.submit(job, orderingKey: orderingKey)
        }
    }

    /// Jobs per commit and commit durations since start.
    public var writeStatistics: (batchSizes: Histogram, commitSeconds: Histogram) {
        switch backend {
        case .sqlite(let sqlite): sqlite.writer.statistics.snapshot
        case .postgres(let postgres): postgres.writer.statistics.snapshot
        }
    }

    /// Runs `body` on a pooled read-only connection.
    func read<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        try StoreError.translating {
            switch backend {
            case .sqlite(let sqlite): try sqlite.read(body)
            case .postgres(let postgres): try postgres.readers.read(body)
            }
        }
    }

    /// PostgreSQL only: runs `body` on a pooled connection outside any transaction, so each
    /// statement commits by itself (READ COMMITTED), without a writer's batch: for a write
    /// that checks its own precondition in its `WHERE` clause, such as a batch of refresh
    /// rotations. SQLite writes only through its one writer.
    func commitEachStatement<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        guard case .postgres(let postgres) = backend else {
            preconditionFailure("commitEachStatement is PostgreSQL's: SQLite writes only through its writer")
        }
        return try StoreError.translating { try postgres.readers.read(body) }
    }

    /// Finishes queued writes and stops the writers; on SQLite, also folds the WAL back
    /// into the database file, as on a clean shutdown.
    public func close() throws {
        switch backend {
        case .sqlite(let sqlite): try sqlite.close()
        case .postgres(let postgres): postgres.close()
        }
    }
}
