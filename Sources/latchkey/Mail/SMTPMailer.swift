import LatchkeyCore
import Logging
import SMTP

/// The production mail transport: each message as MIME (quoted-printable, so any relay
/// carries it) submitted to `smtpURL`. A refusal for good becomes `UndeliverableMail`, so
/// the outbox gives it up; anything else is retried. Failures reach the log with the
/// server's words, never the message body (it holds the token).
struct SMTPMailer: MailTransport {
    let client: SMTPClient
    /// The `From:` header, `Name <address>` or a bare address.
    let sender: String
    let domain: String
    let logger: Logger

    func deliver(_ message: MailMessage, id: Int64) throws {
        let document = MIMEDocument.render(message, from: sender, encoding: .quotedPrintable, domain: domain)
        do {
            try client.send(from: MIMEDocument.address(in: sender), to: message.recipient, message: Array(document.utf8))
            logger.info("mail to \(message.recipient): \(message.subject)", metadata: ["outbox": "\(id)"])
        } catch {
            logger.warning("mail to \(message.recipient) not delivered: \(error)", metadata: ["outbox": "\(id)"])
            if error.isPermanent { throw UndeliverableMail(error.description) }
            throw error
        }
    }

    func finishBatch() {
        client.finishBatch()
    }
}
