import Dispatch
internal import PostgreSQL
import Synchronization

/// PostgreSQL connections for reads, shared by every thread: a read borrows one, runs
/// (outside any explicit transaction, each statement seeing what was committed before it,
/// as a WAL reader does), and gives it back. At most `capacity` are open, so an instance's
/// share of the server's `max_connections` is bounded; when all are lent, a read waits for
/// one, at most `waitLimitSeconds`, then is busy (503) rather than piling up.
///
/// Every statement read here finds its rows by key, so each connection turns sequential
/// scans off (`enable_seqscan = off`: a scan is still made where no index serves). The
/// planner prices a cached page as if read from disk, and for a table of a few thousand
/// rows it chose to scan the whole table for every batch of sessions (`id = ANY(ids)`),
/// comparing each row with every id: that was most of PostgreSQL's CPU per refresh.
///
/// Each connection also plans a prepared statement once, for any parameters
/// (`plan_cache_mode = force_generic_plan`). Left to choose, PostgreSQL keeps planning a
/// statement for every execution when its first few executions came out cheaper that way,
/// as they do for batches that name one session (a quiet server's, or one client's parallel
/// requests): one instance then planned every batch of bearer checks (17,771 planner calls
/// in 3 s) and served 47k checks a second instead of 61k.
final class PostgreSQLReaderPool: Sendable {
    private let url: String
    private let idle = Mutex<[PostgreSQL.Connection]>([])
    private let free: DispatchSemaphore
    let capacity: Int
    static let waitLimitSeconds = 5

    /// Connections are opened on first use (the first is given, already proven to work).
    init(url: String, capacity: Int, first: PostgreSQL.Connection) throws {
        self.url = url
        self.capacity = max(1, capacity)
        free = DispatchSemaphore(value: self.capacity)
        let first = try Self.prepare(first)
        idle.withLock { $0.append(first) }
    }

    /// Sets a connection up for reading by key (see above).
    private static func prepare(_ connection: PostgreSQL.Connection) throws -> PostgreSQL.Connection {
        try connection.execute("SET enable_seqscan = off")
        try connection.execute("SET plan_cache_mode = force_generic_plan")
        return connection
    }

    func read<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        guard free.wait(timeout: .now() + .seconds(Self.waitLimitSeconds)) == .success else { throw StoreError.busy }
        defer { free.signal() }
        let pooled = idle.withLock { $0.popLast() }
        if let pooled, !pooled.isBroken {
            do {
                return try lend(pooled, body)
            } catch PostgreSQLError.connectionLost {
                // An idle connection the server dropped (a restart, an idle timeout) is only
                // found out by using it; a read is safe to run again on a new one.
            }
        }
        return try lend(try Self.prepare(PostgreSQL.Connection(url: url)), body)
    }

    /// Runs `body` on `connection`, which goes back to the pool unless it broke.
    private func lend<T>(_ connection: PostgreSQL.Connection, _ body: (StoreConnection) throws -> T) throws -> T {
        defer {
            if !connection.isBroken { idle.withLock { $0.append(connection) } }
        }
        return try body(StoreConnection(.postgres(connection)))
    }

    /// Closes the idle connections; reads still running close theirs when they end.
    func close() {
        for connection in idle.withLock({ connections in defer { connections.removeAll() }; return connections }) {
            connection.close()
        }
    }
}
