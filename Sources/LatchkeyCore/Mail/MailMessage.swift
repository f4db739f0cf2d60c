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

/// Delivers one message or throws; the outbox retries what throws, except
/// `UndeliverableMail`.
public protocol MailTransport: Sendable {
    func deliver(_ message: MailMessage, id: Int64) throws
    /// The outbox has nothing more due for now: a transport that keeps a connection open
    /// between messages closes it.
    func finishBatch()
}

extension MailTransport {
    public func finishBatch() {}
}

/// A delivery that retrying cannot help (the server refused the address for good): the
/// outbox gives the message up instead of trying again.
public struct UndeliverableMail: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
