import Foundation
import PostgreSQL
import SQLite
import Testing
import TestSupport

/// `latchkey migrate-to postgres://…`: a single instance's SQLite database moves into an
/// empty PostgreSQL database, and a server over it carries on where the other stopped.
@Suite struct MigrateToTests {
    @Test func anInstanceMovedToPostgreSQLKeepsItsAccountsSessionsAndNames() throws {
        let database = try TestDatabase()
        defer { database.drop() }
        let before = try AccountServer()  // a signup and a login: two audit entries; a reset: one mail
        let ada = try before.signUp("ada@example.com", "Ada.L")
        let phone = try before.logIn("ada@example.com")
        #expect(try before.call("PUT", "/v1/presence", json: ["status": "away"], token: ada.accessToken).status == 200)
        #expect(try before.call("POST", "/v1/auth/password-reset", json: ["email": "ada@example.com"]).status == 202)
        before.stop()

        let move = try LatchkeyProcess(arguments: ["migrate-to", database.url, "--data-dir", before.dataDirectory])
        #expect(move.waitForExit() == 0, "\(move.output)")
        #expect(move.output.contains("users") && move.output.contains("sessions"), "a row count per table: \(move.output)")
        #expect(!move.output.contains(try #require(PostgreSQLServeTests.password(of: database.url))), "never the password")
        let counts = { () throws -> (audit: Int, mail: Int)? in
            try Connection(url: database.url).queryOne("SELECT (SELECT count(*) FROM audit_log), (SELECT count(*) FROM mail_outbox)") {
                ($0.int(at: 0), $0.int(at: 1))
            }
        }
        let copied = try #require(try counts())
        #expect(copied.audit >= 2 && copied.mail >= 1, "the audit log and the outbox moved: \(copied)")
        let seedKeyQuery = "SELECT secret FROM session_seed_key"
        let seedKey = try SQLite.Connection(path: before.dataDirectory + "/latchkey.sqlite", mode: .readOnly).queryOne(seedKeyQuery) { $0.blob(at: 0) }
        let movedSeedKey = try Connection(url: database.url).queryOne(seedKeyQuery) { $0.blob(at: 0) }
        #expect(movedSeedKey != nil && movedSeedKey == seedKey, "the key the sessions' seeds come from replaced the migration's own")

        let after = try AccountServer(
            ["--database", database.url], dataDirectory: before.dataDirectory, signingKey: before.signingKey, signingKeys: before.signingKeys
        )
        defer { after.stop() }
        #expect(try after.me(ada.accessToken)["id"] as? String == ada.id, "an access token from before still works")
        let presence = try after.call("GET", "/v1/presence/\(ada.id)", token: ada.accessToken)
        #expect(presence["status"] as? String == "away", "\(presence)")
        let refreshed = try after.refresh(phone.refreshToken)
        #expect(refreshed.status == 200, "the phone's session moved, refresh key and all")
        _ = try after.logIn("ada@example.com")  // the password hash moved (it throws otherwise)
        #expect(try after.availability("ADA.L")["reason"] as? String == "TAKEN")

        // New rows take ids after the copied ones (the audit log and the outbox generate theirs).
        let grace = try after.signUp("grace@example.com", "grace.h")
        #expect(try after.call("POST", "/v1/auth/password-reset", json: ["email": "grace@example.com"]).status == 202)
        // The reset's mail is queued after the answer: wait for it (at most 5 s).
        var now = try #require(try counts())
        for _ in 0..<50 where now.mail == copied.mail {
            usleep(100_000)
            now = try #require(try counts())
        }
        #expect(now.audit > copied.audit && now.mail > copied.mail, "\(copied) then \(now)")
        #expect(try after.me(grace.accessToken).status == 200)
    }

    /// Ada signed in with Apple (her code exchanged, Apple's token kept sealed): her identity
    /// and the sealed token move as they are (the data directory's key still opens it), and
    /// Apple finds her account after the move.
    @Test func identitiesAndApplesTokensMove() throws {
        let database = try TestDatabase()
        defer { database.drop() }
        let idp = try IdentityServer(appleServer: true)
        let token = try idp.providers.mint("apple", idp.providers.claims("apple", subject: "001.ada"))
        let signedIn = try idp.signIn("apple", token, extra: ["authorizationCode": "001.ada~c"])
        let ada = try #require((signedIn["user"] as? [String: Any])?["id"] as? String, "\(signedIn)")
        let sealedQuery = "SELECT sealed_token FROM apple_refresh_tokens WHERE user_id = ?"
        let sealed = try #require(try StoredRows(idp.server).row(sealedQuery, ada) { $0.blob(at: 0) } ?? nil)
        let before = idp.server
        before.stop()

        let move = try LatchkeyProcess(arguments: ["migrate-to", database.url, "--data-dir", before.dataDirectory])
        #expect(move.waitForExit() == 0, "\(move.output)")
        let moved = try Connection(url: database.url)
        #expect(try moved.queryOne("SELECT user_id FROM identities WHERE provider = 'apple' AND subject = '001.ada'") { $0.text(at: 0) } == ada)
        #expect(try moved.queryOne(sealedQuery, values: [.text(ada)]) { $0.blob(at: 0) } == sealed, "the token moved sealed, byte for byte")

        let after = try AccountServer(
            ["--database", database.url, "--apple-client-ids", IdentityServer.appleClientID, "--apple-base-url", idp.providers.appleIssuer,
             "--outbound-ca-file", idp.providers.certificate.certificatePath],
            dataDirectory: before.dataDirectory, signingKey: before.signingKey, signingKeys: before.signingKeys
        )
        defer { after.stop() }
        let again = try after.call("POST", "/v1/auth/idp/apple", json: ["idToken": try idp.providers.mint("apple", idp.providers.claims("apple", subject: "001.ada"))])
        #expect(again.status == 200 && (again["user"] as? [String: Any])?["id"] as? String == ada, "Apple finds her account: \(again)")
    }

    @Test func aDatabaseThatHoldsAccountsIsLeftAlone() throws {
        let database = try TestDatabase()
        defer { database.drop() }
        let server = try AccountServer(["--database", database.url])
        _ = try server.signUp("ada@example.com", "Ada.L")
        server.stop()
        let local = try AccountServer()
        _ = try local.signUp("bob@example.com", "bob")
        local.stop()

        let move = try LatchkeyProcess(arguments: ["migrate-to", database.url, "--data-dir", local.dataDirectory])
        #expect(move.waitForExit() == 1)
        #expect(move.output.contains("already holds accounts"), "\(move.output)")
        let users = try Connection(url: database.url).queryOne("SELECT count(*) FROM users") { $0.int(at: 0) }
        #expect(users == 1, "nothing was written")
    }

    @Test func aURLThatIsNotPostgreSQLIsABadArgument() throws {
        let move = try LatchkeyProcess(arguments: ["migrate-to", "mysql://root@db/x"])
        #expect(move.waitForExit() == 2)
        #expect(move.output.contains("postgres://"))
    }
}
