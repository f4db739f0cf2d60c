import AuthCrypto
import Foundation
@testable import LatchkeyCore
import Testing
import TestSupport

/// The databases the store tests run on: a test that takes a `StoreBackend` runs once on each.
enum StoreBackend: String, CaseIterable, Sendable {
    case sqlite, postgres
}

/// A fresh, migrated database for one test: an SQLite file of its own, or a database of its
/// own on the test cluster. `close()` (in a `defer`) closes it and removes what it made.
final class ScratchDatabase: Sendable {
    let database: Database
    private let remove: @Sendable () -> Void

    init(_ backend: StoreBackend) throws {
        switch backend {
        case .sqlite:
            let path = NSTemporaryDirectory() + "latchkey-store-\(UUID().uuidString).sqlite"
            database = try Database(path: path)
            remove = {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
        case .postgres:
            let scratch = try TestDatabase()
            // Two writer threads: enough for writes of one test to run side by side.
            database = try Database(postgresURL: scratch.url, connections: 8)
            remove = { scratch.drop() }
        }
    }

    func close() {
        try? database.close()
        remove()
    }

    /// The domain's services over this database, with cheap password hashes.
    func services(refreshReuseGrace: Int64 = 10) throws -> CoreServices {
        let keyring = try Keyring(keys: [SigningKey(id: "k1", secret: Array(repeating: 7, count: 32))])
        let policy = AccountsPolicy(
            passwordIterations: 1000, refreshReuseGrace: refreshReuseGrace, issuer: "https://issuer.test",
            reservedDisplayNames: ReservedDisplayNames([])
        )
        return try CoreServices(
            database: database, keys: CurrentKeyring(keyring), refreshKey: RefreshTokenKey(secret: Array(repeating: 9, count: 32)),
            policy: policy, mail: MailComposer(publicURL: "https://auth.example.com", outboxKey: OutboxKey(secret: Array(repeating: 7, count: 32))!), mailQueued: {}, hashingThreads: 2,
            picturesDirectory: NSTemporaryDirectory() + "latchkey-pictures-\(UUID().uuidString)", publicURL: "https://auth.example.com"
        )
    }

    /// Rows of `table`, or those whose `column` holds `value` (names fixed by the test).
    func count(_ table: String, where column: String? = nil, is value: String = "") throws -> Int {
        try database.read { db in
            guard let column else { return try db.queryOne("SELECT count(*) FROM \(table)") { $0.int(at: 0) } ?? -1 }
            return try db.queryOne("SELECT count(*) FROM \(table) WHERE \(column) = ?", value) { $0.int(at: 0) } ?? -1
        }
    }
}
