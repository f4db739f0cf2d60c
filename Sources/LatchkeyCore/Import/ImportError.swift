import JSONStream

/// Why an import stopped. The exports are all read through before the first account is
/// written (the Firestore and Realtime Database ones into the staging database, the Auth
/// export once to check it), so a file that fails leaves the database as it was.
public enum ImportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file that cannot be opened or read, with the system's reason.
    case unreadable(path: String, reason: String)
    /// A file that is not the export it should be: where, and what is wrong there.
    case malformed(path: String, line: Int, column: Int, message: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read \(path): \(reason)"
        case .malformed(let path, let line, let column, let message): "\(path): line \(line), column \(column): \(message)"
        }
    }

    /// Runs `body`, which reads `path`, with the reader's and the file's failures in these terms.
    static func reading<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as JSONStreamError {
            throw ImportError.malformed(path: path, line: error.location.line, column: error.location.column, message: error.message)
        } catch let error as FileReadError {
            throw ImportError.unreadable(path: error.path, reason: error.reason)
        }
    }
}
