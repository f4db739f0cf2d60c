import Synchronization

/// Read-only connections for work off the event loops (a login's user lookup, say).
/// A reader is lent to one caller at a time; when all are out, a new one is opened
/// rather than making the caller wait.
final class SQLiteReaderPool: Sendable {
    private let open: @Sendable () throws -> StoreConnection
    private let idle = Mutex<[StoreConnection]>([])
    private let maxIdle: Int

    /// `open` makes a new read-only connection.
    init(maxIdle: Int = 8, open: @escaping @Sendable () throws -> StoreConnection) {
        self.open = open
        self.maxIdle = maxIdle
    }

    func read<T>(_ body: (StoreConnection) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? open()
        defer {
            idle.withLock { connections in
                if connections.count < maxIdle { connections.append(connection) }
            }
        }
        return try body(connection)
    }
}
