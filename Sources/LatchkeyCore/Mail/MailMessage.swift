/// One message for one recipient, as the outbox keeps it: plain text and an HTML
/// alternative. Transports add the envelope (From, Date, Message-ID).
public struct MailMessage: Sendable, Equatable {
    public let recipient: String
    public let subject: String
    public let text: String
    public let html: String

    public init(recipient: String, subject: String, text: String, html: String) {
        self.recipient = recipient
        self.subject = subject
        self.text = text
        self.html = html
    }
}

/// Delivers one message or throws; the outbox retries what throws.
public protocol MailTransport: Sendable {
    func deliver(_ message: MailMessage, id: Int64) throws
}
