import Foundation
import Testing
import TestSupport

extension Accounts {
    /// "Confirm your address": a single-use link by mail, followed in a browser (the page)
    /// or posted by the app (the API).
    @Suite struct EmailVerification {
        static func verifyToken(in mail: String) -> String? {
            mail.firstMatch(of: /verify-email\?token=([A-Za-z0-9_-]+)/).map { String($0.1) }
        }

        @Test func theMailedLinkConfirmsTheAddressOnce() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let asked = try server.call("POST", "/v1/auth/verify-email", token: ada.accessToken)
            #expect(asked.status == 202)
            let mail = try #require(try PasswordReset.mails(server, atLeast: 1).first)
            #expect(mail.contains("Subject: Confirm your email for Latchkey"))
            #expect(mail.contains("\(server.publicURL)/verify-email?token="))
            let token = try #require(Self.verifyToken(in: mail))

            let page = try server.call("GET", "/verify-email?token=\(token)")
            #expect(page.status == 200)
            #expect(page.header("Referrer-Policy") == "no-referrer")
            #expect(page.text.contains("Your email is confirmed"))
            #expect(try server.me(ada.accessToken)["emailVerified"] as? Bool == true)
            #expect(try server.call("GET", "/verify-email?token=\(token)").status == 400, "the link works once")
            expectProblem(try server.call("POST", "/v1/auth/verify-email", token: ada.accessToken), 409, "EMAIL_ALREADY_VERIFIED")
            #expect(!server.process.output.contains(token), "the token never reaches the log")
        }

        @Test func theAppCanPostTheTokenInstead() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            #expect(try server.call("POST", "/v1/auth/verify-email", token: ada.accessToken).status == 202)
            let mail = try #require(try PasswordReset.mails(server, atLeast: 1).first)
            let token = try #require(Self.verifyToken(in: mail))
            #expect(try server.call("POST", "/v1/auth/verify-email/confirm", json: ["token": token]).status == 204)
            expectProblem(try server.call("POST", "/v1/auth/verify-email/confirm", json: ["token": token]), 400, "VERIFY_TOKEN_INVALID")
            #expect(try server.me(ada.accessToken)["emailVerified"] as? Bool == true)
        }

        @Test func askingNeedsATokenAndSendsOneMailAMinute() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            expectProblem(try server.call("POST", "/v1/auth/verify-email"), 401, "UNAUTHENTICATED")
            #expect(try server.call("POST", "/v1/auth/verify-email", token: ada.accessToken).status == 202)
            #expect(try server.call("POST", "/v1/auth/verify-email", token: ada.accessToken).status == 202)
            usleep(500_000)
            #expect(try PasswordReset.mails(server, atLeast: 2, within: 1).count == 1)
        }
    }
}
