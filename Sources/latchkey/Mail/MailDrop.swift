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
        let path = "\(directory)/\(String(id).leftPaddedWithZeros(to: 8)).eml"
        let bytes = Array(MIMEDocument.render(message, from: sender).utf8)
        // Written under a temporary name and renamed: a reader never sees half a message,
        // and a retry after a crash replaces the file instead of adding a second.
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw MailDropError(description: "cannot write \(temporary): \(String(cString: strerror(errno)))") }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw MailDropError(description: "cannot write \(path)")
        }
        logger.info("mail to \(message.recipient): \(message.subject)", metadata: ["file": "\(path)"])
    }
}

struct MailDropError: Error, CustomStringConvertible {
    let description: String
}

private extension String {
    func leftPaddedWithZeros(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
