import Foundation
import Testing
import TestSupport

extension Accounts {
    /// What an account's security changes end and void, told as the people involved would
    /// live them (the README's "Account events" table).
    @Suite struct AccountEvents {
        static let attackerAddress = "mallory@evil.example"

        /// The attacker, who knows the victim's password for a moment, asks to move the
        /// account to their own address; returns the link mailed to that address.
        static func attackerAsksToMoveTheAccount(_ server: AccountServer, victim: String) throws -> (session: Account, link: String) {
            let attacker = try server.logIn(victim)
            let asked = try server.call(
                "POST", "/v1/users/me/email", json: ["newEmail": attackerAddress, "password": AccountServer.password], token: attacker.accessToken)
            #expect(asked.status == 202)
            let mails = try PasswordReset.mails(server, atLeast: 2)
            let confirmation = try #require(EmailChange.mail(to: attackerAddress, in: mails))
            let notice = try #require(EmailChange.mail(to: victim, in: mails), "the victim is told at once")
            #expect(notice.contains("If it was not you"))
            return (attacker, try #require(EmailVerification.verifyToken(in: confirmation)))
        }

        /// The victim read the notice and did what it advises; the attacker's link must
        /// then be dead, and the account still the victim's.
        @Test(arguments: ["password change", "password reset", "logout everywhere", "revoking the session that asked", "disabling"])
        func anEmailChangeLinkDiesWhenTheVictimSecuresTheAccount(_ victimsMove: String) throws {
            let server = try AccountServer()
            defer { server.stop() }
            let victim = try server.signUp("ada@example.com", "ada")
            let (attacker, link) = try Self.attackerAsksToMoveTheAccount(server, victim: victim.email)
            var password = AccountServer.password

            switch victimsMove {
            case "password change":
                password = "Marmalade-Orbit-77"
                let changed = try server.call(
                    "POST", "/v1/auth/password", json: ["currentPassword": AccountServer.password, "newPassword": password], token: victim.accessToken)
                #expect(changed.status == 200)
            case "password reset":
                password = "a-whole-new-passphrase"
                #expect(try PasswordReset.requestReset(server, victim.email).status == 202)
                let resetMail = try #require(try PasswordReset.mails(server, atLeast: 3).compactMap(PasswordReset.token).first)
                #expect(try PasswordReset.confirm(server, resetMail, password).status == 204)
            case "logout everywhere":
                #expect(try server.call("POST", "/v1/auth/logout-all", token: victim.accessToken).status == 204)
            case "revoking the session that asked":
                let session = try #require(attacker.sessionID)
                #expect(try server.call("DELETE", "/v1/auth/sessions/\(session)", token: victim.accessToken).status == 204)
            default:
                let disabled = try AdminCommands.run(["users", "disable", victim.id, "--data-dir", server.dataDirectory])
                #expect(disabled.status == 0, "\(disabled.output)")
                #expect(try AdminCommands.run(["users", "enable", victim.id, "--data-dir", server.dataDirectory]).status == 0)
            }

            // The attacker follows the old link, by the API and by the page's form.
            expectProblem(try server.call("POST", "/v1/auth/verify-email/confirm", json: ["token": link]), 400, "VERIFY_TOKEN_INVALID")
            let page = try server.call("GET", "/verify-email?token=\(link)")
            #expect(page.status == 400, "the page says the link is invalid")
            let victimAgain = try server.logIn(victim.email, password: password)
            #expect(try server.me(victimAgain.accessToken)["email"] as? String == victim.email, "the account is still hers")
            expectProblem(try server.call("POST", "/v1/auth/login", json: ["email": Self.attackerAddress, "password": password]),
                          401, "INVALID_LOGIN_CREDENTIALS", "the attacker's address leads nowhere")
        }

        /// The asker signed out: whoever follows the link must still be signed in as the
        /// session that asked.
        @Test func anEmailChangeLinkDiesWithTheSessionThatAskedForIt() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let victim = try server.signUp("ada@example.com", "ada")
            let (attacker, link) = try Self.attackerAsksToMoveTheAccount(server, victim: victim.email)
            #expect(try server.call("POST", "/v1/auth/logout", token: attacker.accessToken).status == 204)
            expectProblem(try server.call("POST", "/v1/auth/verify-email/confirm", json: ["token": link]), 400, "VERIFY_TOKEN_INVALID")
            #expect(try server.me(victim.accessToken)["email"] as? String == victim.email)
        }

        /// Logging out everywhere voids every other kind of link too: a reset link and a
        /// verification link mailed before it no longer work.
        @Test func loggingOutEverywhereVoidsEveryOutstandingLink() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            #expect(try server.call("POST", "/v1/auth/verify-email", token: ada.accessToken).status == 202)
            let verification = try #require(try PasswordReset.mails(server, atLeast: 1).compactMap(EmailVerification.verifyToken).first)
            #expect(try server.call("POST", "/v1/auth/logout-all", token: ada.accessToken).status == 204)
            expectProblem(try server.call("POST", "/v1/auth/verify-email/confirm", json: ["token": verification]), 400, "VERIFY_TOKEN_INVALID")
            let again = try server.logIn(ada.email)
            #expect(try server.me(again.accessToken)["emailVerified"] as? Bool == false)
        }

        /// A user who never opened a stream signs out of her only session: her watchers see
        /// her go offline at once, not when the presence timeout runs out.
        @Test(arguments: ["logout", "disabling"])
        func aUserWithNoLiveSessionLeftIsOfflineAtOnce(_ ending: String) throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let bob = try server.signUp("bob@example.com", "bob")
            let watcher = try PresenceEventStream(server, token: bob.accessToken, watching: [ada.id])
            guard case .presence(ada.id, "online", _)? = try watcher.nextPresence() else { throw TestError("no snapshot") }
            let started = Date()
            if ending == "logout" {
                #expect(try server.call("POST", "/v1/auth/logout", token: ada.accessToken).status == 204)
            } else {
                #expect(try AdminCommands.run(["users", "disable", ada.id, "--data-dir", server.dataDirectory]).status == 0)
            }
            #expect(try watcher.hears(ada.id, become: "offline", before: started.addingTimeInterval(3)), "the watcher hears ada go offline")
            #expect(Date().timeIntervalSince(started) < 2, "offline at once, not at the presence timeout")
            #expect(try PresenceStreams.status(server, of: ada.id, token: bob.accessToken) == "offline")
        }

        /// An app that reconnects without closing leaves no pile of streams: a ninth stream of
        /// one session closes that session's oldest.
        @Test func oneSessionHoldsAtMostEightStreams() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let bob = try server.signUp("bob@example.com", "bob")
            let streams = try (0..<8).map { _ in try PresenceEventStream(server, token: ada.accessToken, watching: [bob.id]) }
            for stream in streams { guard case .presence(bob.id, _, _)? = try stream.nextPresence() else { throw TestError("no snapshot") } }
            let ninth = try PresenceEventStream(server, token: ada.accessToken, watching: [bob.id])
            #expect(ninth.head.status == 200)
            guard case .presence(bob.id, _, _)? = try ninth.nextPresence() else { throw TestError("no snapshot on the ninth") }
            #expect(try streams[0].ends(), "the oldest stream of the session closes")
            // The others stay open: a change of bob's reaches the second stream.
            #expect(try server.call("PUT", "/v1/presence", json: ["status": "away"], token: bob.accessToken).status == 200)
            guard case .presence(bob.id, "away", _)? = try streams[1].nextPresence() else { throw TestError("the second stream was closed") }
            // Another session has its own eight.
            let phone = try server.logIn(ada.email)
            let phoneStream = try PresenceEventStream(server, token: phone.accessToken, watching: [bob.id])
            guard case .presence(bob.id, "away", _)? = try phoneStream.nextPresence() else { throw TestError("no snapshot for the phone") }
        }
    }
}
