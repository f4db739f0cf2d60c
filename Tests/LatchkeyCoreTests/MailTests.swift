@testable import LatchkeyCore
import Foundation
import Testing

@Suite struct MailTests {
    @Test func retriesBackOffExponentiallyUpToAnHour() {
        #expect((0..<5).map(RetryBackoff.delay(afterAttempts:)) == [2, 4, 8, 16, 32])
        #expect(RetryBackoff.delay(afterAttempts: 40) == RetryBackoff.maximum)
    }

    @Test func aMessageIsMIMEWithCRLFLinesAndItsEnvelope() {
        let message = MailMessage(recipient: "ada@example.com", subject: "Grüße", text: "line one\nline two", html: "<p>hi</p>")
        let document = MIMEDocument.render(message, from: "Latchkey <no-reply@localhost>", now: 1_795_000_000)
        #expect(document.contains("Subject: =?UTF-8?B?R3LDvMOfZQ==?=\r\n"))
        #expect(document.contains("Date: Wed, 18 Nov 2026 11:06:40 +0000\r\n"))
        #expect(document.contains("Auto-Submitted: auto-generated\r\n"))
        #expect(document.contains("line one\r\nline two"))
        #expect(!document.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "no bare LF")
    }

    @Test func aNonASCIISenderNameTravelsAsAnEncodedWord() {
        #expect(MIMEDocument.mailbox("Zoë's App <no-reply@zoe.example>") == "=?UTF-8?B?Wm/DqydzIEFwcA==?= <no-reply@zoe.example>")
        #expect(MIMEDocument.mailbox("Latchkey <no-reply@localhost>") == "Latchkey <no-reply@localhost>")
        #expect(MIMEDocument.mailbox("no-reply@localhost") == "no-reply@localhost")
        #expect(MIMEDocument.address(in: "Zoë's App <no-reply@zoe.example>") == "no-reply@zoe.example")
        #expect(MIMEDocument.address(in: " no-reply@localhost ") == "no-reply@localhost")
    }

    @Test func htmlTextIsEscaped() {
        #expect(HTMLText.escape(#"<a href="x">&'"#) == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;")
    }

    /// What the outbox stores cannot be read, or redirected, without the outbox key.
    @Suite struct Sealing {
        static let key = OutboxKey(secret: Array(repeating: 3, count: 32))!
        static let message = MailMessage(
            recipient: "ada@example.com", subject: "Reset your password",
            text: "https://auth.example.com/reset-password?token=abc", html: "<a href=\"https://auth.example.com/reset-password?token=abc\">Grüße</a>"
        )

        @Test func aSealedMessageOpensAsItWasAndHoldsNoLinkInTheClear() {
            let sealed = SealedMail(Self.message, key: Self.key)
            #expect(sealed.recipient == "ada@example.com" && sealed.subject == "Reset your password")
            #expect(!String(decoding: sealed.body, as: UTF8.self).contains("token="))
            #expect(sealed.open(with: Self.key) == Self.message)
            let empty = MailMessage(recipient: "a@example.com", subject: "", text: "", html: "")
            #expect(SealedMail(empty, key: Self.key).open(with: Self.key) == empty)
        }

        @Test func aBodyOpensOnlyWithItsKeyRecipientAndSubject() {
            let sealed = SealedMail(Self.message, key: Self.key)
            #expect(sealed.open(with: OutboxKey(secret: Array(repeating: 4, count: 32))!) == nil, "another instance's key")
            #expect(SealedMail(recipient: "mallory@example.com", subject: sealed.subject, body: sealed.body).open(with: Self.key) == nil,
                    "moved to another recipient's row")
            #expect(SealedMail(recipient: sealed.recipient, subject: "Hello", body: sealed.body).open(with: Self.key) == nil)
        }

        @Test func theKeyFileIsMadeOnceWithMode0600() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-key-\(UInt64.random(in: 0...UInt64.max))").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let first = try OutboxKey.loadOrCreate(inDirectory: directory)
            let sealed = SealedMail(Self.message, key: first)
            #expect(sealed.open(with: try OutboxKey.loadOrCreate(inDirectory: directory)) == Self.message, "read again, the same key")
            let mode = try FileManager.default.attributesOfItem(atPath: directory + "/outbox-key")[.posixPermissions] as? Int
            #expect(mode == 0o600)
            try "not a key\n".write(toFile: directory + "/outbox-key", atomically: true, encoding: .utf8)
            #expect(throws: SecretFileError.self) { try OutboxKey.loadOrCreate(inDirectory: directory) }
        }
    }
}
