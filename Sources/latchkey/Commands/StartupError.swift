import HTTPServer
import SchemaMigrations
import SQLite

/// Start-up failures in one line: what went wrong and, where it helps, what to do.
enum StartupError {
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as ListenError: error.description
        case let error as MigrationError: error.description
        case let error as SQLiteError: "database error: \(error.description)"
        case let error as CustomStringConvertible: error.description
        default: "\(error)"
        }
    }
}
