/// A read-only view of the stores for one thread: an event loop keeps its own, so an
/// inline read (a bearer check, a profile, `/readyz`) never waits on a pool, a lock or
/// the writer (WAL readers never wait). Callers see no connection, only the domain calls
/// that take a reader.
///
/// `@unchecked Sendable`: each reader is used by the one thread that owns it (an event
/// loop, through the API's per-loop table); it is only handed over once, at start-up.
public final class StoreReader: @unchecked Sendable {
    private let connection: StoreConnection

    init(connection: StoreConnection) {
        self.connection = connection
    }

    /// Runs a store read on this reader, with database failures in the domain's terms.
    func read<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        try StoreError.translating { try body(connection) }
    }
}
