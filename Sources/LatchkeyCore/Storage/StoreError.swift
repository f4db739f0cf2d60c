/// A storage failure as the domain and the API see it, whatever database lies beneath:
/// callers decide between "try again shortly", "someone else changed this" and "our
/// fault" without knowing SQLite's or PostgreSQL's error types.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    /// The database stayed locked past its busy timeout, or (PostgreSQL) could not be
    /// reached, lost the connection, or kept refusing to serialize a write: worth retrying
    /// in a moment.
    case busy
    /// A uniqueness rule refused a write that no check of the caller foresaw (a change
    /// that raced this one).
    case conflict
    /// Anything else (a damaged file, a full disk, an I/O error): the server's fault.
    /// The text is the database's own message, which never carries bound values.
    case failed(String)

    public var description: String {
        switch self {
        case .busy: "database busy"
        case .conflict: "database uniqueness conflict"
        case .failed(let message): "database failure: \(message)"
        }
    }

    /// `error` in the domain's terms when it came from the database (a driver's error says
    /// its own, see `DriverError`); anything else (a domain error thrown inside a
    /// transaction) unchanged.
    static func translating(_ error: any Error) -> any Error {
        (error as? any DriverError)?.storeError ?? error
    }

    /// Runs `body`, translating what the database throws.
    static func translating<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw translating(error)
        }
    }
}

/// A database driver's error, which says what it is in the domain's terms: each backend's
/// folder gives its driver's (`SQLiteError+StoreError`, `PostgreSQLError+StoreError`), so
/// this file names neither.
protocol DriverError: Error {
    var storeError: StoreError { get }
}
