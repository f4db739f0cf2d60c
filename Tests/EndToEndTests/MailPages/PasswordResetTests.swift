import Foundation
import Testing
import TestSupport

extension Accounts {
    /// "Forgot password?": a single-use link by mail (the development mail drop,
    /// `{dataDir}/mail/*.eml`), then a new password that ends every session.
    @Suite struct PasswordReset {
        /// The messages in the mail drop, oldest first, once at least `count` are there.
        static func mails(_ server: AccountServer, atLeast count: Int, within seconds: Double = 10) throws -> [String] {
            let directory = server.dataDirectory + "/mail"
            let deadline = Date().addingTimeInterval(seconds)
            var found: [String] = []
            repeat {
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".eml") }.sorted()
                found = names.compactMap { try? String(contentsOfFile: directory + "/" + $0, encoding: .utf8) }
                if found.count >= count { return found }
                usleep(50_000)
            } while Date() < deadline
            return found
        }

        static func token(in mail: String) -> String? {
            mail.firstMatch(of: /reset-password\?token=([A-Za-z0-9_-]+)/).map { String($0.1) }
        }

        static func requestReset(_ server: AccountServer, _ email: String) throws -> JSONResponse {
            try server.call("POST", "/v1/auth/password-reset", json: ["email": email])
        }

        static func confirm(_ server: AccountServer, _ token: String, _ password: String) throws -> JSONResponse {
            try server.call("POST", "/v1/auth/password-reset/confirm", json: ["token": token, "newPassword": password])
        }

        @Test func aMailedLinkSetsANewPasswordOnceAndEndsEverySession() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("Ada@Example.com", "ada")
            let phone = try server.logIn("ada@example.com")
            let answer = try Self.requestReset(server, "ada@example.com")
            #expect(answer.status == 202)
            #expect(answer["message"] as? String == "If this email is registered, a reset link has been sent.")
            let mail = try #require(try Self.mails(server, atLeast: 1).first)
            #expect(mail.contains("To: Ada@Example.com"))
            #expect(mail.contains("Subject: Reset your Latchkey password"))
            #expect(mail.contains("Auto-Submitted: auto-generated"))
            #expect(mail.contains("\(server.publicURL)/reset-password?token="))
            let token = try #require(Self.token(in: mail))
            #expect(!server.process.output.contains(token), "the token never reaches the log")

            #expect(try Self.confirm(server, token, "a-whole-new-passphrase").status == 204)
            expectProblem(try server.me(ada.accessToken), 401, "SESSION_REVOKED", "every session ends")
            expectProblem(try server.refresh(phone.refreshToken), 401, "INVALID_REFRESH_TOKEN")
            expectProblem(try server.call("POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": AccountServer.password]),
                          401, "INVALID_LOGIN_CREDENTIALS", "the old password")
            try server.logIn("ada@example.com", password: "a-whole-new-passphrase")
            expectProblem(try Self.confirm(server, token, "yet-another-passphrase"), 400, "RESET_TOKEN_INVALID", "the link works once")

            let notice = try #require(try Self.mails(server, atLeast: 2).last)
            #expect(notice.contains("Subject: Your Latchkey password was changed"))
            #expect(notice.contains("If it was not you"))
            #expect(Self.token(in: notice) == nil, "a notice carries no token")
        }

        @Test func changingThePasswordMailsANoticeWithoutAToken() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let changed = try server.call("POST", "/v1/auth/password", json: ["currentPassword": AccountServer.password, "newPassword": "a-whole-new-passphrase"],
                                          token: ada.accessToken)
            #expect(changed.status == 200)
            let notice = try #require(try Self.mails(server, atLeast: 1).first)
            #expect(notice.contains("To: ada@example.com"))
            #expect(notice.contains("Subject: Your Latchkey password was changed"))
            #expect(!notice.contains("token="))
        }

        /// A product team changes the words without recompiling: files in
        /// `{dataDir}/templates/` replace the built-in parts, placeholders filled in.
        @Test func templatesInTheDataDirectoryReplaceTheBuiltInWords() throws {
            let dataDirectory = LatchkeyProcess.makeTemporaryDirectory() + "/data"
            let templates = dataDirectory + "/templates"
            try FileManager.default.createDirectory(atPath: templates, withIntermediateDirectories: true)
            try "Your {{productName}} reset\n".write(toFile: templates + "/password-reset.subject", atomically: true, encoding: .utf8)
            try "Hello from {{productName}}! {{link}}\n".write(toFile: templates + "/password-reset.txt", atomically: true, encoding: .utf8)
            let server = try AccountServer(["--product-name", "Acme <Chat>"], dataDirectory: dataDirectory)
            defer { server.stop() }
            try server.signUp("ada@example.com", "ada")
            _ = try Self.requestReset(server, "ada@example.com")
            let mail = try #require(try Self.mails(server, atLeast: 1).first)
            #expect(mail.contains("Subject: Your Acme <Chat> reset\r\n"))
            #expect(mail.contains("Hello from Acme <Chat>! \(server.publicURL)/reset-password?token="))
            #expect(mail.contains("your Acme &lt;Chat&gt; account"), "the built-in HTML part, the name escaped")
        }

        @Test func anUnknownAddressGetsTheSameAnswerAndNoMail() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let known = try { () throws -> JSONResponse in
                try server.signUp("ada@example.com", "ada")
                return try Self.requestReset(server, "ada@example.com")
            }()
            let unknown = try Self.requestReset(server, "nobody@example.com")
            #expect(unknown.status == known.status)
            #expect(unknown["message"] as? String == known["message"] as? String)
            usleep(500_000)
            #expect(try Self.mails(server, atLeast: 2, within: 1).count == 1, "only the registered address gets mail")
        }

        @Test func oneMailAMinuteAndANewLinkVoidsTheOlder() throws {
            let server = try AccountServer()
            defer { server.stop() }
            try server.signUp("ada@example.com", "ada")
            #expect(try Self.requestReset(server, "ada@example.com").status == 202)
            #expect(try Self.requestReset(server, "ada@example.com").status == 202, "the same answer within the minute")
            usleep(500_000)
            let first = try Self.mails(server, atLeast: 2, within: 1)
            #expect(first.count == 1, "no second mail within the minute")
            let older = try #require(Self.token(in: first[0]))

            try StoredRows.write(server, "UPDATE account_tokens SET created_at = created_at - 61")
            #expect(try Self.requestReset(server, "ada@example.com").status == 202)
            let latest = try #require(try Self.mails(server, atLeast: 2).last)
            let newer = try #require(Self.token(in: latest))
            expectProblem(try Self.confirm(server, older, "a-whole-new-passphrase"), 400, "RESET_TOKEN_INVALID", "voided by the newer link")
            #expect(try Self.confirm(server, newer, "a-whole-new-passphrase").status == 204)
        }

        @Test func anExpiredLinkIsRefused() throws {
            let server = try AccountServer()
            defer { server.stop() }
            try server.signUp("ada@example.com", "ada")
            _ = try Self.requestReset(server, "ada@example.com")
            let mail = try #require(try Self.mails(server, atLeast: 1).first)
            let token = try #require(Self.token(in: mail))
            try StoredRows.write(server, "UPDATE account_tokens SET expires_at = expires_at - 3601")
            expectProblem(try Self.confirm(server, token, "a-whole-new-passphrase"), 400, "RESET_TOKEN_INVALID", "older than an hour")
        }

        @Test func badInputIsRefusedWithItsCode() throws {
            let server = try AccountServer()
            defer { server.stop() }
            try server.signUp("ada@example.com", "ada")
            expectProblem(try Self.requestReset(server, "not-an-email"), 400, "INVALID_EMAIL")
            _ = try Self.requestReset(server, "ada@example.com")
            let mail = try #require(try Self.mails(server, atLeast: 1).first)
            let token = try #require(Self.token(in: mail))
            expectProblem(try Self.confirm(server, token, "12345678"), 400, "WEAK_PASSWORD")
            expectProblem(try Self.confirm(server, "made-up-token", "a-whole-new-passphrase"), 400, "RESET_TOKEN_INVALID")
            #expect(try Self.confirm(server, token, "a-whole-new-passphrase").status == 204, "a refused attempt used nothing up")
        }

        /// The outbox keeps a message through a failed delivery and a restart: it arrives
        /// once the transport works again, exactly once. Alone it takes about 7 s (two server
        /// starts, the outbox's back-off); the limit leaves room for the full suite's load,
        /// under which one clean-clone run took it past a minute.
        @Test(.timeLimit(.minutes(3)))
        func aMessageThatCouldNotBeDeliveredArrivesOnceAfterARestart() throws {
            var server = try AccountServer()
            defer { server.stop() }
            try server.signUp("ada@example.com", "ada")
            // A file where the mail directory should be: every delivery fails.
            let blocker = server.dataDirectory + "/mail"
            #expect(FileManager.default.createFile(atPath: blocker, contents: Data("not a directory".utf8)))
            #expect(try Self.requestReset(server, "ada@example.com").status == 202)
            usleep(1_500_000)  // an attempt or two fail meanwhile
            server = try server.restarted()
            try FileManager.default.removeItem(atPath: blocker)
            let delivered = try Self.mails(server, atLeast: 1, within: 15)
            #expect(delivered.count == 1)
            #expect(delivered.first.flatMap(Self.token(in:)) != nil)
            usleep(3_000_000)  // time for a second delivery, were there one
            #expect(try Self.mails(server, atLeast: 2, within: 0.1).count == 1, "exactly once")
        }
    }
}
