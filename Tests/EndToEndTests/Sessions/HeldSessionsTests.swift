import Foundation
import Testing
import TestSupport

extension Accounts {
    /// The bearer check answers from the instance's copy of active sessions and their
    /// accounts once it has read them (README, "Sessions held in memory"). Each test warms
    /// that copy first, then changes the account, and the next request must see the
    /// change: a copy that outlived an account event would let a revoked device in.
    @Suite struct HeldSessions {
        /// Reads `/me` a few times, so the session is held (the first read fills the copy).
        static func warm(_ server: AccountServer, _ account: Account) throws {
            for _ in 0..<3 { #expect(try server.me(account.accessToken).status == 200) }
        }

        /// How long after `start` `check` first holds, polling every 2 ms for at most `limit`
        /// seconds; nil if it never did.
        static func timeUntil(_ limit: TimeInterval, since start: Date = Date(), _ check: () throws -> Bool) rethrows -> TimeInterval? {
            for _ in 0..<Int(limit * 500) {
                if try check() { return Date().timeIntervalSince(start) }
                usleep(2000)
            }
            return nil
        }

        /// A stolen phone: its owner revokes it from her laptop. The thief's next request
        /// with the phone's access token, which the server has been answering from memory,
        /// is refused.
        @Test func aRevokedSessionIsRefusedAtItsNextRequest() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let laptop = try server.signUp("ada@example.com", "ada")
            let phone = try server.logIn("ada@example.com")
            try Self.warm(server, phone)

            let sessionID = try #require(phone.sessionID)
            #expect(try server.call("DELETE", "/v1/auth/sessions/\(sessionID)", token: laptop.accessToken).status == 204)
            expectProblem(try server.me(phone.accessToken), 401, "SESSION_REVOKED")
            #expect(try server.me(laptop.accessToken).status == 200, "her laptop stays signed in")
        }

        /// A password change ends every other session, held or not.
        @Test func aPasswordChangeEndsTheOtherHeldSessionsAtOnce() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let laptop = try server.signUp("ada@example.com", "ada")
            let phone = try server.logIn("ada@example.com")
            try Self.warm(server, phone)
            let changed = try server.call(
                "POST", "/v1/auth/password", json: ["currentPassword": AccountServer.password, "newPassword": "Marmalade-Orbit-77"],
                token: laptop.accessToken)
            #expect(changed.status == 200)
            expectProblem(try server.me(phone.accessToken), 401, "SESSION_REVOKED")
        }

        /// A new name and picture through one session: her other session, held, reads
        /// them at its next request.
        @Test func aChangedProfileIsSeenByHerOtherSessionAtOnce() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let laptop = try server.signUp("ada@example.com", "ada")
            let phone = try server.logIn("ada@example.com")
            try Self.warm(server, phone)

            let photo = "https://images.example.com/ada.png"
            let patched = try server.call("PATCH", "/v1/users/me", json: ["displayName": "Ada.L", "photoURL": photo], token: laptop.accessToken)
            #expect(patched.status == 200)
            let seen = try server.me(phone.accessToken)
            #expect(seen["displayName"] as? String == "Ada.L")
            #expect(seen["photoURL"] as? String == photo)
        }

        /// Her address verified through the mailed link (no session involved): her held
        /// session reads it verified.
        @Test func aVerifiedAddressIsSeenAtOnce() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            #expect(try server.call("POST", "/v1/auth/verify-email", token: ada.accessToken).status == 202)
            let link = try #require(try PasswordReset.mails(server, atLeast: 1).compactMap(EmailVerification.verifyToken).first)
            try Self.warm(server, ada)
            #expect(try server.me(ada.accessToken)["emailVerified"] as? Bool == false)

            #expect(try server.call("POST", "/v1/auth/verify-email/confirm", json: ["token": link]).status == 204)
            #expect(try server.me(ada.accessToken)["emailVerified"] as? Bool == true)
        }

        /// An operator disables an abusive account from the command line, another process:
        /// the server hears it through the database (SQLite: its 100 ms poll of the events
        /// table; PostgreSQL: NOTIFY) and refuses the held session within a second.
        @Test func aDisabledUsersHeldSessionIsRefusedWithinTheFeedsDelay() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let mallory = try server.signUp("mallory@example.com", "mallory")
            try Self.warm(server, mallory)

            let disabled = try AdminCommands.run(["users", "disable", mallory.id, "--data-dir", server.dataDirectory])
            #expect(disabled.status == 0, "\(disabled.output)")
            let refusedAfter = try Self.timeUntil(1) { try server.me(mallory.accessToken).status == 401 }
            #expect(refusedAfter != nil, "still answered a second after the account was disabled")
            expectProblem(try server.me(mallory.accessToken), 401, "SESSION_REVOKED")
        }
    }
}
