import Foundation
import Testing
import TestSupport

extension Accounts {
    /// Two instances over one database each run an outbox sender: every message still goes
    /// out exactly once, whichever instance queued it (each sender claims its batch).
    @Suite struct OutboxAcrossInstances {
        @Test func twoSendersDeliverEachMessageExactlyOnce() throws {
            let sink = try MailSink()
            let options = ["--smtp-url", "smtp://127.0.0.1:\(sink.port)"]
            let a = try AccountServer(options)
            let b = try AccountServer(
                options, dataDirectory: a.dataDirectory, signingKey: a.signingKey, signingKeys: a.signingKeys, issuer: a.configuredIssuer
            )
            defer { a.stop(); b.stop() }
            let emails = (0..<40).map { "user\($0)@example.com" }
            for (index, email) in emails.enumerated() {
                let server = index.isMultiple(of: 2) ? a : b
                _ = try server.signUp(email, "user\(index)")
                #expect(try PasswordReset.requestReset(server, email).status == 202)
            }
            _ = try sink.messages(atLeast: emails.count, within: 30)
            // Both senders poll every second: give a second pass the chance to send again.
            usleep(2_500_000)
            let recipients = try sink.messages(atLeast: emails.count).flatMap(\.rcptTo)
            #expect(recipients.count == emails.count, "each message once, not \(recipients.count) for \(emails.count)")
            #expect(Set(recipients) == Set(emails))
        }
    }
}
