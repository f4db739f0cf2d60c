import FoundationEssentials
import LatchkeyCore
import Logging
import SMTP

/// The transport the settings ask for: SMTP when `smtpURL` is set, else the development
/// mail drop in `{dataDir}/mail/`.
enum MailTransportChoice {
    static func make(_ settings: Settings, publicURL: String, logger: Logger) throws -> any MailTransport {
        guard let smtpURL = settings.smtpURL else {
            return MailDrop(directory: settings.dataDir + "/mail", sender: settings.mailFrom, logger: logger)
        }
        let endpoint = try SMTPEndpoint(url: smtpURL)
        let requireTLS = settings.smtpRequireTLS ?? !endpoint.isLoopback
        if !requireTLS, !endpoint.isLoopback, endpoint.security == .startTLS {
            logger.warning("smtpRequireTLS is false: mail to \(endpoint.host) may travel unencrypted")
        }
        // The public host names this server in EHLO and in Message-IDs.
        let publicHost = URL(string: publicURL)?.host ?? "localhost"
        let client = try SMTPClient(
            settings: SMTPClient.Settings(endpoint: endpoint, requireTLS: requireTLS, heloName: publicHost), caFile: settings.smtpCAFile
        )
        logger.info("mail goes to \(endpoint.host):\(endpoint.port)", metadata: ["tls": "\(endpoint.security == .implicitTLS ? "implicit" : requireTLS ? "STARTTLS required" : "STARTTLS when offered")"])
        return SMTPMailer(client: client, sender: settings.mailFrom, domain: publicHost, logger: logger)
    }
}
