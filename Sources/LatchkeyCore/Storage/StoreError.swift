internal import SQLite

/// A storage failure as the domain and the API see it, whatever database lies beneath:
/// callers decide between "try again shortly", "someone else changed this" and "our
/// fault" without knowing SQLite's (or, later, PostgreSQL's) error types.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    /// The database stayed locked past its busy timeout: worth retrying in a moment.
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
        guard let error = error as? SQLiteError else { return error }
        return switch error {
        case .busy: StoreError.busy
        case .uniqueViolation: StoreError.conflict
        case .constraint, .corrupt, .readOnly, .other: StoreError.failed(error.description)
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
