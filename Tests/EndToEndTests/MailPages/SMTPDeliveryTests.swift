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

            // Verification: the link opens a page whose button confirms the address.
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
            #expect(try EmailVerification.pressConfirm(server, String(verifyLink.split(separator: "=").last!)).status == 200)
            #expect(try server.me(ada.accessToken)["emailVerified"] as? Bool == true)

            // Reset (another account):
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
            #expect(try EmailVerification.pressConfirm(server, String(changeLink.split(separator: "=").last!)).status == 200)
            #expect(try server.me(cy.accessToken)["email"] as? String == "cy@new.example")
            #expect(!server.process.output.contains(token), "no token reaches the log")
            #expect(!server.process.output.contains("p@ss"), "nor the SMTP password")
        }

        /// Waits until the server's log shows a failed delivery and returns that line.
        static func failedDelivery(_ server: AccountServer, within seconds: Double = 15) -> String? {
            let deadline = Date().addingTimeInterval(seconds)
            repeat {
                if let line = server.process.output.split(separator: "\n").first(where: { $0.contains("not delivered") }) { return String(line) }
                usleep(50_000)
            } while Date() < deadline
            return nil
        }

        @Test func aResetAskedWhileTheMailServerIsDownArrivesExactlyOnceAfterARestart() throws {
            let sink = try MailSink()
            sink.stop()
            let options = ["--smtp-url", "smtp://127.0.0.1:\(sink.port)"]
            var server = try AccountServer(options)
            defer { server.stop() }
            try server.signUp("ada@example.com", "ada")
            #expect(try PasswordReset.requestReset(server, "ada@example.com").status == 202)
            let failure = try #require(Self.failedDelivery(server), "an attempt fails while the server is down")
            #expect(failure.contains("cannot connect"))

            server = try server.restarted(options)
            try sink.start()
            let mails = try sink.messages(atLeast: 1)
            let reset = try Self.message(to: "ada@example.com", subject: "Reset your Latchkey password", in: mails)
            // Another poll, and another restart, send nothing more.
            usleep(2_500_000)
            server = try server.restarted(options)
            usleep(2_500_000)
            #expect(sink.count == 1, "the message arrives exactly once")

            // (The link names the first server's port; the token is what matters.)
            let token = try #require(PasswordReset.token(in: reset.text))
            #expect(try PasswordReset.confirm(server, token, "a-whole-new-passphrase").status == 204, "its link still works")
        }

        /// A mailbox the server refuses for good (550) is not tried again and again: the
        /// message is given up, with the reason kept, and the next one goes out.
        @Test func aMessageRefusedForGoodIsGivenUp() throws {
            let sink = try MailSink(refusing: ["gone@example.com"])
            let server = try AccountServer(["--smtp-url", "smtp://127.0.0.1:\(sink.port)"])
            defer { server.stop() }
            try server.signUp("gone@example.com", "gone")
            try server.signUp("ada@example.com", "ada")
            #expect(try PasswordReset.requestReset(server, "gone@example.com").status == 202)
            #expect(try PasswordReset.requestReset(server, "ada@example.com").status == 202)
            let failure = try #require(Self.failedDelivery(server))
            #expect(failure.contains("mail to gone@example.com not delivered: RCPT TO answered 550 5.1.1 mailbox unavailable"))
            #expect(try sink.messages(atLeast: 1).map(\.rcptTo) == [["ada@example.com"]])
            usleep(3_000_000)  // past the first retry's time (2 s), were it retried
            let outbox = try #require(try StoredRows(server).row(
                "SELECT attempts, abandoned_at IS NOT NULL, sent_at IS NULL, last_error FROM mail_outbox WHERE recipient = ?", "gone@example.com"
            ) { ($0.int(at: 0), $0.int(at: 1), $0.int(at: 2), $0.text(at: 3) ?? "") })
            #expect(outbox.0 == 1 && outbox.1 == 1 && outbox.2 == 1, "one attempt, given up, never sent: \(outbox)")
            #expect(outbox.3.contains("550 5.1.1 mailbox unavailable"))
        }

        enum Refusal: String, CaseIterable, CustomTestStringConvertible {
            case untrustedCertificate, certificateForAnotherHost, noSTARTTLSWhereTLSIsRequired
            var testDescription: String { rawValue }
        }

        /// Nothing is sent, and the log says why, when the server cannot be verified or
        /// does not offer the TLS the settings require.
        @Test(arguments: Refusal.allCases)
        func mailIsNotSentWithoutTheTLSTheSettingsAskFor(_ refusal: Refusal) throws {
            let sink: MailSink
            let options: [String]
            let reason: String
            switch refusal {
            case .untrustedCertificate:
                sink = try MailSink(certificate: try TestCertificate())
                options = ["--smtp-url", "smtp://localhost:\(sink.port)"]
                reason = "the server's certificate is not trusted: self-signed certificate"
            case .certificateForAnotherHost:
                let certificate = try TestCertificate(names: "DNS:mail.example.test")
                sink = try MailSink(certificate: certificate)
                options = ["--smtp-url", "smtp://localhost:\(sink.port)", "--smtp-ca-file", certificate.certificatePath]
                reason = "the server's certificate is not trusted: hostname mismatch"
            case .noSTARTTLSWhereTLSIsRequired:
                sink = try MailSink()
                options = ["--smtp-url", "smtp://127.0.0.1:\(sink.port)", "--smtp-require-tls", "true"]
                reason = "the server does not offer STARTTLS and TLS is required (smtpRequireTLS)"
            }
            let server = try AccountServer(options)
            defer { server.stop() }
            try server.signUp("ada@example.com", "ada")
            #expect(try PasswordReset.requestReset(server, "ada@example.com").status == 202)
            let failure = try #require(Self.failedDelivery(server))
            #expect(failure.contains(reason), "\(failure)")
            #expect(sink.count == 0)
        }
    }
}
