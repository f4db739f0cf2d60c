@testable import LatchkeyCore
import Testing

@Suite struct MailTests {
    @Test func retriesBackOffExponentiallyUpToAnHour() {
        #expect((0..<5).map(OutboxSender.backoff(afterAttempts:)) == [2, 4, 8, 16, 32])
        #expect(OutboxSender.backoff(afterAttempts: 40) == OutboxSender.maximumBackoff)
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
}
