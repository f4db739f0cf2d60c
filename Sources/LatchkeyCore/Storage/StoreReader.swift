/// A read-only view of the stores for one thread: an event loop keeps its own, so an
/// inline read (a bearer check, a profile, `/readyz`) never waits on a pool, a lock or
/// the writer (WAL readers never wait). Callers see no connection, only the domain calls
/// that take a reader.
///
/// On PostgreSQL a reader borrows a pooled connection for each read instead, so it may be
/// used from any thread (the API runs those reads on a pool of threads, not on the loops).
///
/// `@unchecked Sendable`: an SQLite reader is used by the one thread that owns it (an event
/// loop, through the API's per-loop table), handed over once, at start-up; a PostgreSQL
/// reader holds only its pool, which is thread-safe.
public final class StoreReader: @unchecked Sendable {
    enum Source {
        case connection(StoreConnection)
        case pool(PostgreSQLReaderPool)
    }

    private let source: Source

    init(_ source: Source) {
        self.source = source
    }

    /// Runs a store read on this reader, with database failures in the domain's terms.
    func read<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        switch source {
        case .connection(let connection): try StoreError.translating { try body(connection) }
        case .pool(let pool): try StoreError.translating { try pool.read(body) }
        }
    }
}
