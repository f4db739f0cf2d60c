internal import SQLite
import Synchronization

/// Read-only connections for work off the event loops (a login's user lookup, say).
/// A reader is lent to one caller at a time; when all are out, a new one is opened
/// rather than making the caller wait.
final class ReaderPool: Sendable {
    private let path: String
    private let idle = Mutex<[Connection]>([])
    private let maxIdle: Int

    init(path: String, maxIdle: Int = 8) {
        self.path = path
        self.maxIdle = maxIdle
    }

    func read<T>(_ body: (Connection) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? Connection(path: path, mode: .readOnly)
        defer {
            idle.withLock { connections in
                if connections.count < maxIdle { connections.append(connection) }
            }
        }
        return try body(connection)
    }
}
