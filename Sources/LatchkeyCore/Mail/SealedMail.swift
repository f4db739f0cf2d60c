import AuthCrypto

/// A message as the outbox stores it: the envelope in the clear (the operator reads who was
/// mailed what, and why a delivery failed), the bodies sealed under the `OutboxKey`, since
/// they carry single-use links that a copy of the database must not yield. The recipient
/// and subject are bound to the sealed bodies: a sealed body moved to another row, or a
/// row's recipient changed, no longer opens, so nobody with write access to the database
/// alone can redirect a link to another mailbox.
struct SealedMail: Sendable {
    let recipient: String
    let subject: String
    /// `nonce ‖ AES-256-GCM(text length (4 bytes, big-endian) ‖ text ‖ html) ‖ tag`.
    let body: [UInt8]

    init(_ message: MailMessage, key: OutboxKey) {
        recipient = message.recipient
        subject = message.subject
        let text = Array(message.text.utf8)
        let framed = Self.length(of: text) + text + Array(message.html.utf8)
        body = key.cipher.seal(framed, authenticating: Self.associatedData(recipient: recipient, subject: subject))
    }

    init(recipient: String, subject: String, body: [UInt8]) {
        self.recipient = recipient
        self.subject = subject
        self.body = body
    }

    /// The message, or nil when the body was sealed under another key, altered, or belongs
    /// to another recipient or subject.
    func open(with key: OutboxKey) -> MailMessage? {
        guard let framed = key.cipher.open(body, authenticating: Self.associatedData(recipient: recipient, subject: subject)),
              framed.count >= 4 else { return nil }
        let length = Int(framed[0]) << 24 | Int(framed[1]) << 16 | Int(framed[2]) << 8 | Int(framed[3])
        guard length <= framed.count - 4 else { return nil }
        let text = String(decoding: framed[4..<(4 + length)], as: UTF8.self)
        let html = String(decoding: framed[(4 + length)...], as: UTF8.self)
        return MailMessage(recipient: recipient, subject: subject, text: text, html: html)
    }

    /// Each part with its length in front, so no two envelopes authenticate the same bytes.
    private static func associatedData(recipient: String, subject: String) -> [UInt8] {
        var data = Array("latchkey mail_outbox v1".utf8)
        for part in [recipient, subject] {
            let bytes = Array(part.utf8)
            data += length(of: bytes) + bytes
        }
        return data
    }

    /// 4 bytes, big-endian (a template of 4 GiB is not a message).
    private static func length(of bytes: [UInt8]) -> [UInt8] {
        let count = UInt32(bytes.count)
        return [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
    }
}
