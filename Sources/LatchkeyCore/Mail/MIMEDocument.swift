import AuthCrypto
import FoundationEssentials
import Glibc

/// A message as RFC 5322 / MIME text: plain text with an HTML alternative in UTF-8, with
/// `Date`, `Message-ID` and `Auto-Submitted` (so auto-responders stay quiet).
public enum MIMEDocument {
    /// How the two parts travel: 8-bit reads best in a file, quoted-printable crosses any
    /// SMTP server (7-bit, short lines).
    public enum BodyEncoding: Sendable {
        case eightBit
        case quotedPrintable
    }

    public static func render(
        _ message: MailMessage, from sender: String, encoding: BodyEncoding = .eightBit, now: Int64 = UnixTime.now(), domain: String = "latchkey"
    ) -> String {
        let transferEncoding = encoding == .eightBit ? "8bit" : "quoted-printable"
        func body(_ text: String) -> String { encoding == .eightBit ? text : QuotedPrintable.encode(text) }
        let boundary = "latchkey-" + Base64URL.encode(SecureRandom.bytes(12))
        let messageID = "<\(Base64URL.encode(SecureRandom.bytes(16)))@\(domain)>"
        return [
            "From: \(mailbox(sender))",
            "To: \(message.recipient)",
            "Subject: \(encodedWord(message.subject))",
            "Date: \(rfc5322Date(now))",
            "Message-ID: \(messageID)",
            "Auto-Submitted: auto-generated",
            "MIME-Version: 1.0",
            "Content-Type: multipart/alternative; boundary=\"\(boundary)\"",
            "",
            "--\(boundary)",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: \(transferEncoding)",
            "",
            body(message.text),
            "--\(boundary)",
            "Content-Type: text/html; charset=utf-8",
            "Content-Transfer-Encoding: \(transferEncoding)",
            "",
            body(message.html),
            "--\(boundary)--",
            "",
        ].joined(separator: "\r\n").replacingLineEndings()
    }

    /// `Name <address>` with a non-ASCII name as an encoded-word (`Zoë's App` stays
    /// readable in every client); a bare address as it is.
    static func mailbox(_ text: String) -> String {
        guard let open = text.lastIndex(of: "<"), open > text.startIndex else { return text }
        let name = String(text[..<open]).trimmingWhitespace()
        return name.utf8.allSatisfy({ $0 < 0x80 }) ? text : "\(encodedWord(name)) \(text[open...])"
    }

    /// The address of `Name <address>`, or the whole text when it has no angle brackets:
    /// the envelope sender (`MAIL FROM`) of a `mailFrom` setting.
    public static func address(in mailbox: String) -> String {
        guard let open = mailbox.lastIndex(of: "<"), let close = mailbox[open...].firstIndex(of: ">") else {
            return mailbox.trimmingWhitespace()
        }
        return String(mailbox[mailbox.index(after: open)..<close])
    }

    /// A header value as it may travel: ASCII as it is, anything else as one UTF-8
    /// encoded-word (RFC 2047).
    static func encodedWord(_ text: String) -> String {
        text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) ? text : "=?UTF-8?B?\(Data(text.utf8).base64EncodedString())?="
    }

    /// `Tue, 24 Nov 2026 01:30:00 +0000`.
    static func rfc5322Date(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(parts.tm_mday) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) +0000"
    }
}

private extension String {
    /// Every line break as CRLF, as RFC 5322 wants, whatever the templates used.
    func replacingLineEndings() -> String {
        var result = ""
        result.reserveCapacity(utf8.count + 64)
        var previous: Character?
        for character in self {
            if character == "\n", previous != "\r" { result += "\r\n" } else { result.append(character) }
            previous = character
        }
        return result
    }
}
