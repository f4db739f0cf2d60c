import Foundation
import SQLite
import Testing
import TestSupport

extension Accounts {
    /// `latchkey backup PATH` beside the running server: a copy of the SQLite file, so it
    /// is SQLite's alone (over PostgreSQL the command says to use pg_dump, see
    /// PostgreSQLServeTests).
    @Suite struct BackupCommand {
        /// Signups commit all through the copy; the copy is a whole database (integrity
        /// check ok) holding at least every account that existed when it began.
        @Test func backupCopiesTheDatabaseWhileTheServerWrites() throws {
            let server = try AccountServer()
            defer { server.stop() }
            for index in 0..<20 { try server.signUp("early\(index)@example.com", "early\(index)") }
            let port = server.port
            let writing = Thread.detachNewThreadWithResult {
                (0..<40).filter { index in
                    let body: [String: Any] = ["email": "late\(index)@example.com", "password": AccountServer.password, "displayName": "late\(index)"]
                    return (try? call(port: port, "POST", "/v1/auth/signup", body: .json(body)))?.status == 201
                }.count
            }
            let backup = LatchkeyProcess.makeTemporaryDirectory() + "/copy.sqlite"
            let result = try AdminCommands.run(["backup", backup, "--data-dir", server.dataDirectory])
            #expect(result.status == 0, "\(result.output)")
            #expect(writing.value == 40, "the server kept committing")

            let copy = try Connection(path: backup, mode: .readOnly)
            #expect(try copy.queryOne("PRAGMA integrity_check") { $0.text(at: 0) } == "ok")
            let users = try copy.queryOne("SELECT count(*) FROM users") { $0.int(at: 0) } ?? 0
            #expect(users >= 20 && users <= 60)

            let again = try AdminCommands.run(["backup", backup, "--data-dir", server.dataDirectory])
            #expect(again.status == 1)
            #expect(again.output == "latchkey: \(backup) already exists; choose a new file for the backup")
            let missing = try AdminCommands.run(["backup", "--data-dir", server.dataDirectory])
            #expect(missing.status == 2)
            #expect(missing.output.hasPrefix("latchkey: Missing expected argument '<path>'"))
        }

        @Test func aBackupIsRecordedInTheAuditLog() throws {
            let server = try AccountServer()
            defer { server.stop() }
            try server.signUp("ada@example.com", "ada")
            let backup = LatchkeyProcess.makeTemporaryDirectory() + "/copy.sqlite"
            #expect(try AdminCommands.run(["backup", backup, "--data-dir", server.dataDirectory]).status == 0)
            #expect(try AuditLogEntries.audit(server).map { $0["event"] as? String ?? "?" } == ["signup", "admin_backup"])
        }
    }
}
