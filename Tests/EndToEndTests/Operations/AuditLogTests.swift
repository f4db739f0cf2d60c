import Foundation
import Testing
import TestSupport

extension Accounts {
    /// The audit log, read with `latchkey audit`: what happened, to whom, from where, in
    /// order; never a secret; filtered by user and time; pruned after its retention.
    @Suite struct AuditLogEntries {
        static func audit(_ server: AccountServer, _ extra: [String] = []) throws -> [[String: Any]] {
            let result = try AdminCommands.run(["audit", "--json", "--data-dir", server.dataDirectory] + extra)
            #expect(result.status == 0, "\(result.output)")
            return try #require(try AdminCommands.json(result.output) as? [[String: Any]])
        }

        @Test func accountsAndSessionsLeaveATrailWithoutSecrets() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let phone = try server.logIn("ada@example.com")
            _ = try server.call("POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": "not-her-password"])
            let rotated = try server.refresh(phone.refreshToken)
            #expect(rotated.status == 200)
            let changed = try server.call("POST", "/v1/auth/password", json: ["currentPassword": AccountServer.password, "newPassword": "Marmalade-Orbit-77"], token: ada.accessToken)
            #expect(changed.status == 200)
            let fresh = try server.logIn("ada@example.com", password: "Marmalade-Orbit-77")
            #expect(try server.call("POST", "/v1/auth/logout", token: fresh.accessToken).status == 204)
            #expect(try AdminCommands.run(["users", "disable", ada.id, "--data-dir", server.dataDirectory]).status == 0)

            let entries = try Self.audit(server)
            let events = entries.map { $0["event"] as? String ?? "?" }
            #expect(events == ["signup", "login", "login_failed", "password_changed", "login", "logout", "admin_user_disabled"])
            #expect(entries.allSatisfy { $0["userId"] as? String == ada.id })
            #expect(entries[1]["address"] as? String == "127.0.0.1" && entries[1]["sessionId"] as? String == phone.sessionID)
            #expect(entries[2]["detail"] as? String == "wrong password")
            #expect(Set(entries[0].keys) == ["at", "event", "userId", "address", "sessionId", "detail"])

            let text = try AdminCommands.run(["audit", "--data-dir", server.dataDirectory]).output
            #expect(text.hasPrefix("AT") && text.contains("admin_user_disabled"))
            for secret in [AccountServer.password, "Marmalade-Orbit-77", "not-her-password", ada.accessToken, phone.refreshToken, "ada@example.com"] {
                #expect(!text.contains(secret))
            }
            #expect(try Self.audit(server, ["--since", "2999-01-01T00:00:00Z"]).isEmpty)
            #expect(try Self.audit(server, ["--user", "ada@example.com"]).count == entries.count)
            let bad = try AdminCommands.run(["audit", "--since", "yesterday", "--data-dir", server.dataDirectory])
            #expect(bad.status == 2 && bad.output.hasPrefix("latchkey: The value 'yesterday' is invalid for '--since <since>': expected a time such as"))
        }

        @Test func reuseAndDeletionAreRecordedAndEntriesOutliveTheAccount() throws {
            let server = try AccountServer(["--refresh-reuse-grace", "1"])
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            #expect(try server.refresh(ada.refreshToken).status == 200)
            usleep(2_100_000)
            expectProblem(try server.refresh(ada.refreshToken), 401, "REFRESH_TOKEN_REUSED")
            let bob = try server.signUp("bob@example.com", "bob")
            #expect(try server.call("DELETE", "/v1/users/me", json: ["password": AccountServer.password], token: bob.accessToken).status == 204)

            let events = try Self.audit(server).map { $0["event"] as? String ?? "?" }
            #expect(events == ["signup", "refresh_reused", "signup", "account_deleted"])
            #expect(try Self.audit(server, ["--user", bob.id]).map { $0["event"] as? String } == ["signup", "account_deleted"], "by id after the account is gone")
        }

        @Test func entriesOlderThanTheRetentionArePrunedAtStart() throws {
            let server = try AccountServer()
            _ = try server.signUp("ada@example.com", "ada")
            server.stop()
            try StoredRows.write(server, "UPDATE audit_log SET at = at - 3 * 86400")
            let restarted = try AccountServer(["--audit-retention-days", "2"], dataDirectory: server.dataDirectory)
            defer { restarted.stop() }
            let deadline = Date().addingTimeInterval(3)
            var left = try Self.audit(restarted)
            while !left.isEmpty, Date() < deadline {
                usleep(50_000)
                left = try Self.audit(restarted)
            }
            #expect(left.isEmpty)
        }
    }
}
