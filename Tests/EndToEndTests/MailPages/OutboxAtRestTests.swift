import Foundation
import PostgreSQL
import SQLite
import Testing
import TestSupport

extension Accounts {
    /// What the mail outbox leaves in the database: a copy of it (a backup file, a replica,
    /// a dump) must not hand anyone a working link, whether the message still waits or
    /// was delivered long ago.
    @Suite struct OutboxAtRest {
        /// An attacker's copy of the database, as far as the outbox goes: every row with
        /// every column as text, and over SQLite the whole file `latchkey backup` wrote
        /// (free pages included).
        struct Copy {
            let rows: [String]
            let file: Data?
        }

        static func attackersCopy(of server: AccountServer) throws -> Copy {
            if DatabaseUnderTest.isPostgreSQL {
                // Read straight from the database, as a replica or pg_dump would show it.
                let database = try PostgreSQL.Connection(url: try DatabaseUnderTest.postgresURL(forDataDirectory: server.dataDirectory))
                defer { database.close() }
                return Copy(rows: try database.query("SELECT mail_outbox::text FROM mail_outbox") { $0.text(at: 0) ?? "" }, file: nil)
            }
            let path = LatchkeyProcess.makeTemporaryDirectory() + "/stolen.sqlite"
            let backup = try AdminCommands.run(["backup", path, "--data-dir", server.dataDirectory])
            #expect(backup.status == 0, "\(backup.output)")
            let copy = try SQLite.Connection(path: path, mode: .readOnly)
            let columns = try copy.query("SELECT name FROM pragma_table_info('mail_outbox')") { $0.text(at: 0) ?? "" }
            let rows = try copy.query("SELECT \(columns.joined(separator: ", ")) FROM mail_outbox") { row in
                (0..<columns.count).map { row.text(at: $0) ?? "NULL" }.joined(separator: "|")
            }
            return Copy(rows: rows, file: FileManager.default.contents(atPath: path))
        }

        /// Waits until the server has recorded `count` messages as delivered.
        static func delivered(_ server: AccountServer, count: Int, within seconds: Double = 10) throws -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            repeat {
                if try StoredRows(server).row("SELECT count(*) FROM mail_outbox WHERE sent_at IS NOT NULL", read: { $0.int(at: 0) }) == count { return true }
                usleep(50_000)
            } while Date() < deadline
            return false
        }

        @Test func aCopyOfTheDatabaseHoldsNoMailedLinkPendingOrDelivered() throws {
            let sink = try MailSink()
            sink.stop()
            let server = try AccountServer(["--smtp-url", "smtp://127.0.0.1:\(sink.port)"])
            defer { server.stop() }
            try server.signUp("victim@example.com", "victim")

            // The victim forgot her password and asks for a link; the mail server is down,
            // so the message waits in the outbox. The attacker takes a copy of the database.
            #expect(try PasswordReset.requestReset(server, "victim@example.com").status == 202)
            _ = try #require(SMTPDelivery.failedDelivery(server), "an attempt fails while the mail server is down")
            let whilePending = try Self.attackersCopy(of: server)

            // The mail server comes back: the victim gets her link. The attacker takes another copy.
            try sink.start()
            let mail = try SMTPDelivery.message(to: "victim@example.com", subject: "Reset your Latchkey password", in: try sink.messages(atLeast: 1))
            let token = try #require(PasswordReset.token(in: mail.text))
            #expect(try Self.delivered(server, count: 1), "the delivery is recorded")
            let afterDelivery = try Self.attackersCopy(of: server)

            // Neither copy yields the link.
            for (moment, copy) in [("pending", whilePending), ("delivered", afterDelivery)] {
                #expect(copy.rows.count == 1, "\(moment): the message's row is there")
                #expect(!copy.rows.contains { $0.contains(token) }, "\(moment): the token is in the outbox")
                #expect(!copy.rows.contains { $0.contains("token=") }, "\(moment): a link is in the outbox")
                if let file = copy.file {
                    #expect(file.range(of: Data(token.utf8)) == nil, "\(moment): the token is somewhere in the backup file")
                }
            }
            // The link works for the victim, who holds it.
            #expect(try PasswordReset.confirm(server, token, "a-whole-new-passphrase").status == 204)
        }
    }
}
