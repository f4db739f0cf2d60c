import Foundation
import Testing
import TestSupport

extension Accounts {
    /// Moving an account to another address: a link to the new address, a notice to the
    /// old one, and nothing changes until the link is followed.
    @Suite struct EmailChange {
        static func ask(_ server: AccountServer, _ account: Account, to newEmail: String, password: String = AccountServer.password) throws -> JSONResponse {
            try server.call("POST", "/v1/users/me/email", json: ["newEmail": newEmail, "password": password], token: account.accessToken)
        }

        static func mail(to recipient: String, in mails: [String]) -> String? {
            mails.first { $0.contains("To: \(recipient)\r\n") }
        }

        @Test func followingTheLinkMovesTheAccountAndEndsEveryOtherSession() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let phone = try server.logIn("ada@example.com")
            let asked = try Self.ask(server, ada, to: "Ada@New.example")
            #expect(asked.status == 202)
            #expect(try server.me(ada.accessToken)["email"] as? String == "ada@example.com", "nothing changes yet")

            let mails = try PasswordReset.mails(server, atLeast: 2)
            let confirmation = try #require(Self.mail(to: "Ada@New.example", in: mails))
            let notice = try #require(Self.mail(to: "ada@example.com", in: mails))
            #expect(notice.contains("If it was not you"))
            #expect(!notice.contains("token="), "the notice to the old address carries no token")
            let token = try #require(EmailVerification.verifyToken(in: confirmation))

            // Opening the link (or a link preview doing so) shows the button and changes nothing.
            #expect(try server.call("GET", "/verify-email?token=\(token)").status == 200)
            #expect(try server.me(ada.accessToken)["email"] as? String == "ada@example.com", "not moved by opening the link")
            #expect(try server.me(phone.accessToken)["email"] as? String == "ada@example.com", "nor anyone signed out")
            let page = try EmailVerification.pressConfirm(server, token)
            #expect(page.status == 200)
            #expect(page.text.contains("Your account now uses this address"))
            let me = try server.me(ada.accessToken)
            #expect(me["email"] as? String == "Ada@New.example")
            #expect(me["emailVerified"] as? Bool == true)
            expectProblem(try server.me(phone.accessToken), 401, "SESSION_REVOKED", "every session but the one that asked")
            try server.logIn("ada@new.example")
            expectProblem(try server.call("POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": AccountServer.password]),
                          401, "INVALID_LOGIN_CREDENTIALS", "the old address")
        }

        @Test func theRequestChecksPasswordAndAddress() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            try server.signUp("bob@example.com", "bob")
            expectProblem(try Self.ask(server, ada, to: "new@example.com", password: "wrong-password-1"), 401, "INVALID_LOGIN_CREDENTIALS")
            let taken = try Self.ask(server, ada, to: "BOB@example.com")
            expectProblem(taken, 409, "EMAIL_EXISTS")
            #expect(taken["field"] as? String == "newEmail")
            let invalid = try Self.ask(server, ada, to: "not-an-email")
            expectProblem(invalid, 400, "INVALID_EMAIL")
            #expect(invalid["field"] as? String == "newEmail")
            usleep(300_000)
            #expect(try PasswordReset.mails(server, atLeast: 1, within: 0.5).isEmpty, "no mail for a refused request")
        }

        @Test func anAddressRegisteredMeanwhileIsNotTaken() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            #expect(try Self.ask(server, ada, to: "wanted@example.com").status == 202)
            let confirmation = try #require(Self.mail(to: "wanted@example.com", in: try PasswordReset.mails(server, atLeast: 2)))
            let token = try #require(EmailVerification.verifyToken(in: confirmation))
            try server.signUp("wanted@example.com", "someone_else")

            expectProblem(try server.call("POST", "/v1/auth/verify-email/confirm", json: ["token": token]), 409, "EMAIL_EXISTS")
            #expect(try server.call("GET", "/verify-email?token=\(token)").status == 200, "the link is live: only the button tells")
            let page = try EmailVerification.pressConfirm(server, token)
            #expect(page.status == 400)
            #expect(page.text.contains("already in use"))
            #expect(try server.me(ada.accessToken)["email"] as? String == "ada@example.com", "nothing changed")
        }
    }
}
