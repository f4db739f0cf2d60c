import Foundation
import Testing
import TestSupport

extension Accounts {
    /// Mail through a real SMTP server (aiosmtpd): plain on loopback, and STARTTLS with
    /// AUTH and a certificate the test makes. The messages are read as a mail client reads
    /// them, and their links are followed to the end.
    @Suite struct SMTPDelivery {
        enum Transport: String, CaseIterable, CustomTestStringConvertible {
            case plain, startTLS
            var testDescription: String { rawValue }
        }

        /// A sink for `transport` and the Latchkey options that point at it.
        static func sink(_ transport: Transport) throws -> (sink: MailSink, options: [String]) {
            switch transport {
            case .plain:
                let sink = try MailSink()
                return (sink, ["--smtp-url", "smtp://127.0.0.1:\(sink.port)"])
            case .startTLS:
                let certificate = try TestCertificate()
                let sink = try MailSink(certificate: certificate, user: "latchkey", password: "p@ss:word")
                return (sink, ["--smtp-url", "smtp://latchkey:p%40ss%3Aword@localhost:\(sink.port)", "--smtp-ca-file", certificate.certificatePath])
            }
        }

        /// `link` (an absolute URL under the server's public URL) as a request path.
        static func path(of link: String, on server: AccountServer) throws -> String {
            #expect(link.hasPrefix(server.publicURL + "/"))
            return String(link.dropFirst(server.publicURL.count))
        }

        static func message(to recipient: String, subject: String, in mails: [DeliveredMail]) throws -> DeliveredMail {
            try #require(mails.first { $0.rcptTo == [recipient] && $0.subject == subject }, "no '\(subject)' to \(recipient) in \(mails.map(\.subject))")
        }

        @Test(arguments: Transport.allCases)
        func verificationResetAndEmailChangeArriveAndTheirLinksWork(_ transport: Transport) throws {
            let (sink, options) = try Self.sink(transport)
            let server = try AccountServer(options)
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")

            // Verification: the link opens a page that confirms the address.
            #expect(try server.call("POST", "/v1/auth/verify-email", token: ada.accessToken).status == 202)
            let verification = try Self.message(to: "ada@example.com", subject: "Confirm your email for Latchkey", in: try sink.messages(atLeast: 1))
            #expect(verification.mailFrom == "no-reply@localhost")
            #expect(verification.from == "Latchkey <no-reply@localhost>")
            #expect(verification.autoSubmitted == "auto-generated")
            #expect(!verification.date.isEmpty && verification.messageID.hasPrefix("<"))
            #expect(verification.transferEncodings == ["quoted-printable", "quoted-printable"])
            #expect(verification.sevenBit && verification.longestLine <= 78, "any relay carries it unchanged")
            let verifyLink = try #require(verification.link(startingWith: server.publicURL + "/verify-email?token="))
            #expect(verification.html.contains(verifyLink), "the HTML part carries the same link")
            #expect(try server.call("GET", try Self.path(of: verifyLink, on: server)).status == 200)
            #expect(try server.me(ada.accessToken)["emailVerified"] as? Bool == true)

            // Reset (another account: mailed links go out at most once a minute per account):
            // the link opens the form, the form sets the password.
            try server.signUp("bob@example.com", "bob")
            #expect(try PasswordReset.requestReset(server, "bob@example.com").status == 202)
            let reset = try Self.message(to: "bob@example.com", subject: "Reset your Latchkey password", in: try sink.messages(atLeast: 2))
            let resetLink = try #require(reset.link(startingWith: server.publicURL + "/reset-password?token="))
            #expect(try server.call("GET", try Self.path(of: resetLink, on: server)).status == 200)
            let token = String(resetLink.split(separator: "=").last!)
            let done = try ResetPasswordPage.post(server, [("token", token), ("password", "a-whole-new-passphrase"), ("confirmPassword", "a-whole-new-passphrase")])
            #expect(done.status == 200)
            try server.logIn("bob@example.com", password: "a-whole-new-passphrase")
            _ = try Self.message(to: "bob@example.com", subject: "Your Latchkey password was changed", in: try sink.messages(atLeast: 3))

            // Email change: the new address gets the link, the old one a notice.
            let cy = try server.signUp("cy@example.com", "cyrus")
            let asked = try server.call("POST", "/v1/users/me/email", json: ["newEmail": "cy@new.example", "password": AccountServer.password],
                                        token: cy.accessToken)
            #expect(asked.status == 202)
            let mails = try sink.messages(atLeast: 5)
            let confirmation = try Self.message(to: "cy@new.example", subject: "Confirm your new email for Latchkey", in: mails)
            let notice = try Self.message(to: "cy@example.com", subject: "Your Latchkey email is about to change", in: mails)
            #expect(!notice.text.contains("token=") && !notice.html.contains("token="), "a notice carries no token")
            let changeLink = try #require(confirmation.link(startingWith: server.publicURL + "/verify-email?token="))
            #expect(try server.call("GET", try Self.path(of: changeLink, on: server)).status == 200)
            #expect(try server.me(cy.accessToken)["email"] as? String == "cy@new.example")
            #expect(!server.process.output.contains(token), "no token reaches the log")
            #expect(!server.process.output.contains("p@ss"), "nor the SMTP password")
        }
    }
}
