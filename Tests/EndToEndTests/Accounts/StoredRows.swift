import Foundation
import SQLite
import TestSupport

/// What the server left in its database, read straight from the file (migrations/0001):
/// how the tests see that a transaction left nothing behind or that a hash was upgraded.
struct StoredRows {
    let database: Connection

    init(_ server: AccountServer) throws {
        database = try Connection(path: server.databasePath, mode: .readOnly)
    }

    func passwordHash(email: String) throws -> String? {
        try database.queryOne("SELECT password_hash FROM users WHERE email_key = ?", email.lowercased()) { $0.text(at: 0) } ?? nil
    }

    /// The iteration count of a PHC string `$pbkdf2-sha256$i=N$salt$hash`.
    static func iterations(ofHash hash: String?) -> Int? {
        guard let hash, let match = hash.firstMatch(of: /^\$pbkdf2-sha256\$i=(\d+)\$[^$]+\$[^$]+$/) else { return nil }
        return Int(match.1)
    }

    func count(_ sql: String, _ value: String) throws -> Int {
        try database.queryOne(sql, value) { $0.int(at: 0) } ?? 0
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
        try database.queryOne("SELECT count(*) FROM \(table)") { $0.int(at: 0) } ?? 0
    }

    func presenceStatus(_ userID: String) throws -> String? {
        try database.queryOne("SELECT status FROM presence WHERE user_id = ?", userID) { $0.text(at: 0) } ?? nil
    }

    /// Writes behind the server's back, for states no endpoint of this contract creates
    /// (a disabled account, a user gone offline).
    static func write(_ server: AccountServer, _ sql: String, _ value: String) throws {
        let database = try Connection(path: server.databasePath)
        try database.run(sql, value)
    }
}
