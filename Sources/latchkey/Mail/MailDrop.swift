import FoundationEssentials
import Glibc
import LatchkeyCore
import Logging

/// The development mail transport: with no `smtpURL`, each message becomes an `.eml`
/// file in `{dataDir}/mail/` (mode 0600; open it, click the link) and one log line with
/// its recipient and subject, never its body, so no token reaches the log.
struct MailDrop: MailTransport {
    let directory: String
    let sender: String
    let logger: Logger

    func deliver(_ message: MailMessage, id: Int64) throws {
        // The data directory exists (serve made it); its mail folder is made on first use.
        if mkdir(directory, 0o700) != 0, errno != EEXIST {
            throw MailDropError(description: "cannot create \(directory): \(String(cString: strerror(errno)))")
        }
        let path = "\(directory)/\(String(id).leftPadded(to: 8)).eml"
        // A reader never sees half a message, and a retry after a crash replaces the file
        // instead of adding a second.
        try DurableFile.write(Array(MIMEDocument.render(message, from: sender).utf8), to: path)
        logger.info("mail to \(message.recipient): \(message.subject)", metadata: ["file": "\(path)"])
    }
}

struct MailDropError: Error, CustomStringConvertible {
    let description: String
}

