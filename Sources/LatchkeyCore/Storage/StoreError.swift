internal import PostgreSQL
internal import SQLite

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

    /// `error` in the domain's terms when it came from the database; anything else (a
    /// domain error thrown inside a transaction) unchanged.
    static func translating(_ error: any Error) -> any Error {
        if let error = error as? SQLiteError { return translating(sqlite: error) }
        if let error = error as? PostgreSQLError { return translating(postgres: error) }
        return error
    }

    private static func translating(sqlite error: SQLiteError) -> StoreError {
        switch error {
        case .busy: .busy
        case .uniqueViolation: .conflict
        case .constraint, .corrupt, .readOnly, .other: .failed(error.description)
        }
    }

    /// The same cases as SQLite's: a unique violation is the conflict a service may meet
    /// (with the same API answer on both); what SQLite would call busy (a server out of
    /// reach, a lost connection, a write that lost its serialization retries, a canceled
    /// statement) is busy; the rest is the server's fault. PostgreSQL's messages never
    /// carry a bound value, and a connection's never the URL's password (see
    /// `PostgreSQLError`, `Connection.init(url:)`).
    private static func translating(postgres error: PostgreSQLError) -> StoreError {
        switch error {
        case .uniqueViolation: .conflict
        case .serializationFailure, .deadlock, .connectionLost, .cannotConnect, .queryCanceled: .busy
        case .foreignKeyViolation, .constraint, .other: .failed(error.description)
        }
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
