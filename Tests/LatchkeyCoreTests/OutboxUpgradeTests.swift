import Foundation
@testable import LatchkeyCore
import PostgreSQL
import SQLite
import SchemaMigrations
import Synchronization
import Testing
import TestSupport

/// An outbox written by a version before migrations/0015 (bodies in the clear) meets this
/// one: what was delivered or given up loses its body at the upgrade, and what still waits
/// is delivered once, as it was queued, then loses its body too.
@Suite struct OutboxUpgradeTests {
    /// Rows as the earlier version left them: one delivered, one given up, one waiting.
    static let earlierRows = """
        INSERT INTO mail_outbox (recipient, subject, text_body, html_body, created_at, next_attempt_at, sent_at, abandoned_at) VALUES
        ('sent@example.com', 'Reset', 'https://x/reset-password?token=SENT', '<a>token=SENT</a>', 1, 1, 2, NULL),
        ('gone@example.com', 'Reset', 'https://x/reset-password?token=GONE', '<a>token=GONE</a>', 1, 1, NULL, 2),
        ('wait@example.com', 'Reset', 'https://x/reset-password?token=WAIT', '<a>token=WAIT</a>', 1, 1, NULL, NULL)
        """

    /// A database migrated up to 0013 holding `earlierRows`, then opened by this version
    /// (which applies the rest).
    static func upgradedDatabase(_ backend: StoreBackend) throws -> (database: Database, close: () -> Void) {
        switch backend {
        case .sqlite:
            let path = NSTemporaryDirectory() + "latchkey-upgrade-\(UUID().uuidString).sqlite"
            do {  // closed when it goes out of scope
                let earlier = try SQLite.Connection(path: path)
                _ = try Migrator(migrations: EmbeddedMigrations.all.filter { $0.version <= 13 }).migrate(earlier)
                try earlier.execute(earlierRows)
            }
            let database = try Database(path: path)
            return (database, {
                try? database.close()
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            })
        case .postgres:
            let scratch = try TestDatabase()
            let earlier = try PostgreSQL.Connection(url: scratch.url)
            _ = try Migrator(migrations: EmbeddedMigrations.postgres.filter { $0.version <= 13 }).migrate(earlier)
            _ = try earlier.run(earlierRows, values: [])
            earlier.close()
            let database = try Database(postgresURL: scratch.url, connections: 4)
            return (database, {
                try? database.close()
                scratch.drop()
            })
        }
    }

    /// The bodies each recipient's row still holds, as text.
    static func bodies(_ database: Database) throws -> [String: String] {
        try database.read { db in
            try db.query("SELECT recipient, coalesce(text_body, ''), coalesce(html_body, ''), sealed_body IS NULL FROM mail_outbox") { row in
                (row.text(at: 0) ?? "", (row.text(at: 1) ?? "") + (row.text(at: 2) ?? "") + (row.int(at: 3) == 1 ? "" : "sealed"))
            }
        }.reduce(into: [:]) { $0[$1.0] = $1.1 }
    }

    final class RecordingTransport: MailTransport {
        let delivered = Mutex<[MailMessage]>([])
        func deliver(_ message: MailMessage, id: Int64) throws {
            delivered.withLock { $0.append(message) }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func earlierBodiesAreDroppedOrDeliveredOnceThenDropped(_ backend: StoreBackend) throws {
        let (database, close) = try Self.upgradedDatabase(backend)
        defer { close() }
        #expect(try Self.bodies(database) == [
            "sent@example.com": "", "gone@example.com": "",
            "wait@example.com": "https://x/reset-password?token=WAIT<a>token=WAIT</a>",
        ])

        let transport = RecordingTransport()
        let sender = OutboxSender(database: database, transport: transport, key: OutboxKey(secret: Array(repeating: 1, count: 32))!, pollInterval: 0.05)
        let deadline = Date().addingTimeInterval(10)
        while transport.delivered.withLock({ $0.isEmpty }), Date() < deadline { usleep(20_000) }
        usleep(200_000)  // a few more passes: nothing else is due
        sender.stop()
        #expect(transport.delivered.withLock { $0 } == [
            MailMessage(recipient: "wait@example.com", subject: "Reset", text: "https://x/reset-password?token=WAIT", html: "<a>token=WAIT</a>"),
        ])
        #expect(try Self.bodies(database) == ["sent@example.com": "", "gone@example.com": "", "wait@example.com": ""])
    }
}
