import Foundation
import PostgreSQL
import SQLite
import SQLValues
import TestSupport

/// What the server left in its database, read straight from it (migrations/0001): how the
/// tests see that a transaction left nothing behind or that a hash was upgraded. The
/// database is the data directory's: its SQLite file, or its PostgreSQL database when the
/// tests run over PostgreSQL (`DatabaseUnderTest`). The SQL must read the same on both.
struct StoredRows {
    /// A value bound to a `?` of the SQL: the same Swift value on either database.
    typealias Value = any SQLBindable

    private enum Handle {
        case sqlite(SQLite.Connection)
        case postgres(PostgreSQL.Connection)
    }

    private let handle: Handle

    init(_ server: AccountServer) throws {
        try self.init(dataDirectory: server.dataDirectory)
    }

    init(dataDirectory: String, writable: Bool = false) throws {
        if DatabaseUnderTest.isPostgreSQL {
            handle = .postgres(try PostgreSQL.Connection(url: try DatabaseUnderTest.postgresURL(forDataDirectory: dataDirectory)))
        } else {
            handle = .sqlite(try SQLite.Connection(path: dataDirectory + "/latchkey.sqlite", mode: writable ? .readWrite : .readOnly))
        }
    }

    /// The first row of a query, read by `read`, or nil when there is none.
    func row<T>(_ sql: String, _ values: Value..., read: (any StoredRow) throws -> T) throws -> T? {
        switch handle {
        case .sqlite(let database): try database.queryOne(sql, values: values.map(\.sqlValue)) { try read($0) }
        case .postgres(let database): try database.queryOne(sql, values: values.map(\.sqlValue)) { try read($0) }
        }
    }

    func run(_ sql: String, _ values: Value...) throws {
        try run(sql, values: values)
    }

    func run(_ sql: String, values: [Value]) throws {
        switch handle {
        case .sqlite(let database): try database.run(sql, values: values.map(\.sqlValue))
        case .postgres(let database): _ = try database.run(sql, values: values.map(\.sqlValue))
        }
    }

    func passwordHash(email: String) throws -> String? {
        try row("SELECT password_hash FROM users WHERE email_key = ?", email.lowercased()) { $0.text(at: 0) } ?? nil
    }

    /// The iteration count of a PHC string `$pbkdf2-sha256$i=N$salt$hash`.
    static func iterations(ofHash hash: String?) -> Int? {
        guard let hash, let match = hash.firstMatch(of: /^\$pbkdf2-sha256\$i=(\d+)\$[^$]+\$[^$]+$/) else { return nil }
        return Int(match.1)
    }

    func count(_ sql: String, _ value: String) throws -> Int {
        try row(sql, value) { $0.int(at: 0) } ?? 0
    }

    /// Rows that belong to a user id, in every table of the account.
    func rowsOfUser(_ id: String) throws -> [String: Int] {
        [
            "users": try count("SELECT count(*) FROM users WHERE id = ?", id),
            "display_names": try count("SELECT count(*) FROM display_names WHERE user_id = ?", id),
            "presence": try count("SELECT count(*) FROM presence WHERE user_id = ?", id),
            "sessions": try count("SELECT count(*) FROM sessions WHERE user_id = ?", id),
        ]
    }

    func total(_ table: String) throws -> Int {
        try row("SELECT count(*) FROM \(table)") { $0.int(at: 0) } ?? 0
    }

    func presenceStatus(_ userID: String) throws -> String? {
        try row("SELECT status FROM presence WHERE user_id = ?", userID) { $0.text(at: 0) } ?? nil
    }

    /// Writes behind the server's back, for states no endpoint of this contract creates
    /// (a disabled account, a user gone offline, a token made older).
    static func write(_ server: AccountServer, _ sql: String, _ values: Value...) throws {
        try StoredRows(dataDirectory: server.dataDirectory, writable: true).run(sql, values: values)
    }
}

/// A row of either database, as `StoredRows` hands it to a reader: both drivers' rows read
/// columns the same way (an integer boolean or a PostgreSQL `t`/`f` both read as 1 or 0).
protocol StoredRow {
    func int(at index: Int) -> Int
    func text(at index: Int) -> String?
    func blob(at index: Int) -> [UInt8]?
    func isNull(at index: Int) -> Bool
}

extension SQLite.Row: StoredRow {}
extension PostgreSQL.Row: StoredRow {}
