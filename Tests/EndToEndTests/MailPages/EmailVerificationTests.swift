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

        /// Ada signs up and asks for a verification link: her account, the mail and its token.
        static func mailedVerification(_ server: AccountServer) throws -> (Account, String, String) {
            let ada = try server.signUp("ada@example.com", "ada")
            #expect(try server.call("POST", "/v1/auth/verify-email", token: ada.accessToken).status == 202)
            let mail = try #require(try PasswordReset.mails(server, atLeast: 1).first)
            return (ada, mail, try #require(verifyToken(in: mail)))
        }

        /// The button of the page behind the link: its form posts the token back.
        static func pressConfirm(_ server: AccountServer, _ token: String) throws -> JSONResponse {
            try server.call("POST", "/verify-email", raw: "token=\(token)", contentType: "application/x-www-form-urlencoded")
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
            ResetPasswordPage.expectPageHeaders(page)
            let confirmed = try Self.pressConfirm(server, token)
            #expect(confirmed.status == 200)
            ResetPasswordPage.expectPageHeaders(confirmed)
            #expect(confirmed.text.contains("Your email is confirmed"))
            #expect(try server.me(ada.accessToken)["emailVerified"] as? Bool == true)
            #expect(try server.call("GET", "/verify-email?token=\(token)").status == 400, "the link works once")
            expectProblem(try server.call("POST", "/v1/auth/verify-email", token: ada.accessToken), 409, "EMAIL_ALREADY_VERIFIED")
            #expect(!server.process.output.contains(token), "the token never reaches the log")
        }

        /// Mail scanners and link previews fetch every link in a message: opening the link
        /// must change nothing, or an address nobody confirmed would count as confirmed.
        @Test func aLinkPreviewThatOpensTheLinkConfirmsNothing() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let (ada, _, token) = try Self.mailedVerification(server)

            // The mail provider's scanner fetches the link before Ada reads the message, twice.
            for _ in 0..<2 {
                let preview = try server.call("GET", "/verify-email?token=\(token)")
                #expect(preview.status == 200)
                ResetPasswordPage.expectPageHeaders(preview)
                #expect(preview.text.contains(#"<form method="post" action="/verify-email">"#))
                #expect(preview.text.contains(#"<input type="hidden" name="token" value="\#(token)">"#))
                #expect(preview.text.contains("Confirm this address"))
            }
            #expect(try server.me(ada.accessToken)["emailVerified"] as? Bool == false, "opening the link confirmed nothing")

            // Ada opens it and presses the button: now the address is confirmed.
            let confirmed = try Self.pressConfirm(server, token)
            #expect(confirmed.status == 200)
            #expect(confirmed.text.contains("Your email is confirmed"))
            #expect(try server.me(ada.accessToken)["emailVerified"] as? Bool == true)

            // The form sent again (a second press, or a replay) finds the link spent.
            let again = try Self.pressConfirm(server, token)
            #expect(again.status == 400)
            ResetPasswordPage.expectPageHeaders(again)
            #expect(again.text.contains("This link no longer works"))
            #expect(try Self.pressConfirm(server, "").status == 400, "no token is no link")
            #expect(!server.process.output.contains(token), "the token never reaches the log")
        }

        /// A stranger who knows Ada's address asks for resets of her password over and over:
        /// that takes the reset mail's minute, not her verification or email-change mail's.
        @Test func aStrangersResetRequestsDoNotHoldBackTheVictimsOtherMail() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")

            // The stranger asks for a reset of Ada's password: a reset mail goes out.
            let first = try PasswordReset.requestReset(server, "ada@example.com")
            #expect(first.status == 202)
            let reset = try PasswordReset.mails(server, atLeast: 1)
            #expect(reset.count == 1 && reset[0].contains("Subject: Reset your Latchkey password"))

            // Right after, Ada (signed in) asks for her verification mail: it is sent.
            #expect(try server.call("POST", "/v1/auth/verify-email", token: ada.accessToken).status == 202)
            let afterVerification = try PasswordReset.mails(server, atLeast: 2)
            #expect(afterVerification.count == 2)
            #expect(afterVerification.contains { $0.contains("Subject: Confirm your email for Latchkey") }, "the verification mail arrives")

            // And asks to move to another address: that link is sent too.
            #expect(try EmailChange.ask(server, ada, to: "ada@new.example").status == 202)
            let afterChange = try PasswordReset.mails(server, atLeast: 4)
            #expect(EmailChange.mail(to: "ada@new.example", in: afterChange) != nil, "the email-change link arrives")

            // The stranger asks again within the minute: the same answer, and no mail.
            let second = try PasswordReset.requestReset(server, "ada@example.com")
            #expect(second.status == 202)
            #expect(second["message"] as? String == first["message"] as? String)
            usleep(1_500_000)  // the sender looks every second
            #expect(try PasswordReset.mails(server, atLeast: 5, within: 1).count == 4, "a second reset within 60 s sends nothing")
        }

        @Test func theAppCanPostTheTokenInstead() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let (ada, _, token) = try Self.mailedVerification(server)
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
