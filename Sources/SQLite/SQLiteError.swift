import CSQLite

/// A runtime failure reported by SQLite, sorted into the cases callers act on.
///
/// Each payload is SQLite's own message (`sqlite3_errmsg`), which names tables, columns and
/// constraints but never the values that were bound, so an error is safe to log even when
/// the statement carried a password hash or a token. Nothing here appends SQL parameters.
///
/// Match a case without its payload: `catch SQLiteError.uniqueViolation { ... }`.
public enum SQLiteError: Error, Equatable, CustomStringConvertible {
    /// A UNIQUE or PRIMARY KEY constraint failed (SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY).
    case uniqueViolation(String)
    /// Any other constraint failed: NOT NULL, CHECK, FOREIGN KEY, a trigger's RAISE.
    case constraint(String)
    /// The database stayed locked for longer than the busy timeout (SQLITE_BUSY).
    case busy(String)
    /// The file is damaged or is not a database (SQLITE_CORRUPT, SQLITE_NOTADB).
    case corrupt(String)
    /// A write through a read-only connection or to a read-only file (SQLITE_READONLY).
    case readOnly(String)
    /// Everything else, with the extended result code (a syntax error, a missing table,
    /// an I/O error, a full disk).
    case other(code: Int32, message: String)

    /// SQLite's message, whichever the case.
    public var message: String {
        switch self {
        case .uniqueViolation(let message), .constraint(let message), .busy(let message),
             .corrupt(let message), .readOnly(let message), .other(_, let message):
            return message
        }
    }

    public var description: String {
        switch self {
        case .uniqueViolation(let message): return "SQLite unique violation: \(message)"
        case .constraint(let message): return "SQLite constraint failed: \(message)"
        case .busy(let message): return "SQLite busy: \(message)"
        case .corrupt(let message): return "SQLite database corrupt: \(message)"
        case .readOnly(let message): return "SQLite read-only: \(message)"
        case .other(let code, let message): return "SQLite error \(code): \(message)"
        }
    }

    /// Classifies an extended result code (extended codes are switched on for every connection).
    init(resultCode code: Int32, message: String) {
        // SQLITE_MISUSE means this wrapper (or its caller) drove SQLite out of contract:
        // a finalized statement, a closed connection, calls out of order. That is a bug in
        // the program, not a condition a store can handle, so stop here instead of throwing.
        precondition(code & 0xFF != SQLITE_MISUSE, "SQLite API misuse: \(message)")
        switch code {
        case CSQLITE_CONSTRAINT_UNIQUE, CSQLITE_CONSTRAINT_PRIMARYKEY:
            self = .uniqueViolation(message)
        default:
            switch code & 0xFF {
            case SQLITE_CONSTRAINT: self = .constraint(message)
            case SQLITE_BUSY: self = .busy(message)
            case SQLITE_CORRUPT, SQLITE_NOTADB: self = .corrupt(message)
            case SQLITE_READONLY: self = .readOnly(message)
            default: self = .other(code: code, message: message)
            }
        }
    }

    /// The error for a failed call on `db`; SQLite keeps the message of the latest failure
    /// per connection, and a connection is only ever used by one thread at a time.
    init(resultCode code: Int32, db: OpaquePointer?) {
        let message = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        self.init(resultCode: code, message: message)
    }
}
