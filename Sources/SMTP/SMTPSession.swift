import ClientSocket
import COpenSSL

/// One SMTP conversation: greeting, EHLO, STARTTLS (then EHLO again), AUTH, and any
/// number of messages until QUIT. RFC 5321 with RFC 3207 (STARTTLS), 4954 (AUTH),
/// 6152 (8BITMIME) and 6531 (SMTPUTF8).
final class SMTPSession {
    private let channel: SMTPChannel
    private let settings: SMTPClient.Settings
    private var extensions: [ArraySlice<UInt8>] = []

    init(settings: SMTPClient.Settings, tls: TLSContext) throws(SMTPError) {
        self.settings = settings
        let endpoint = settings.endpoint
        channel = try SMTPChannel(host: endpoint.host, port: endpoint.port, deadline: Deadline(secondsFromNow: settings.connectTimeout))
        if endpoint.security == .implicitTLS {
            try channel.startTLS(context: tls, host: endpoint.host, deadline: step())
        }
        try channel.expect([220], step: "the greeting", deadline: step())
        try hello()
        if !channel.isEncrypted {
            if offers("STARTTLS") {
                try channel.exchange("STARTTLS", expecting: [220], step: "STARTTLS", deadline: step())
                try channel.startTLS(context: tls, host: endpoint.host, deadline: step())
                try hello()
            } else if settings.requireTLS {
                throw .tlsNotOffered
            }
        }
        if let username = endpoint.username, let password = endpoint.password {
            try authenticate(username: username, password: password)
        }
    }

    /// Submits one message. `dataStarted` turns true once the server has answered `DATA`,
    /// before the first byte of the message: a failure after that point may still have
    /// delivered it, so the caller must not send it again on another connection.
    func send(from sender: String, to recipient: String, message: [UInt8], dataStarted: inout Bool) throws(SMTPError) {
        let smtpUTF8 = !(sender + recipient).utf8.allSatisfy { $0 < 0x80 }
        if smtpUTF8, !offers("SMTPUTF8") { throw .badAddress("\(recipient) is not ASCII and the server does not offer SMTPUTF8") }
        var parameters = ""
        if offers("8BITMIME"), message.contains(where: { $0 >= 0x80 }) { parameters += " BODY=8BITMIME" }
        if smtpUTF8 { parameters += " SMTPUTF8" }
        try channel.exchange("MAIL FROM:<\(sender)>\(parameters)", expecting: [250], step: "MAIL FROM", deadline: step())
        try channel.exchange("RCPT TO:<\(recipient)>", expecting: [250, 251], step: "RCPT TO", deadline: step())
        try channel.exchange("DATA", expecting: [354], step: "DATA", deadline: step())
        dataStarted = true
        try channel.write(dotStuffed(message), step: "the message", deadline: step())
        try channel.expect([250], step: "the end of the message", deadline: step())
    }

    /// Ends the conversation politely; a server that does not answer is left as it is.
    func quit() {
        _ = try? channel.exchange("QUIT", expecting: [221], step: "QUIT", deadline: Deadline(secondsFromNow: 2))
    }

    private func step() -> Deadline {
        Deadline(secondsFromNow: settings.stepTimeout)
    }

    private func hello() throws(SMTPError) {
        let reply = try channel.exchange("EHLO \(settings.heloName)", expecting: [250], step: "EHLO", deadline: step())
        extensions = Array(reply.lines.dropFirst()).map { ArraySlice($0.map(asciiUppercased)) }
    }

    /// Whether the EHLO reply announced `keyword` (compared as ASCII bytes).
    private func offers(_ keyword: String) -> Bool {
        let wanted = Array(keyword.utf8)
        return extensions.contains { line in
            line.starts(with: wanted) && (line.count == wanted.count || line[line.startIndex + wanted.count] == 0x20)
        }
    }

    /// AUTH mechanisms the server named, from `AUTH PLAIN LOGIN` (or the old `AUTH=...`).
    private func offersAuthentication(_ mechanism: String) -> Bool {
        let wanted = Array(mechanism.utf8)
        for line in extensions where line.starts(with: Array("AUTH".utf8)) && line.count > 4 {
            let separator = line[line.startIndex + 4]
            guard separator == 0x20 || separator == UInt8(ascii: "=") else { continue }
            if line.dropFirst(5).split(separator: 0x20).contains(where: { $0.elementsEqual(wanted) }) { return true }
        }
        return false
    }

    private func authenticate(username: String, password: String) throws(SMTPError) {
        if offersAuthentication("PLAIN") {
            let credentials = base64([0] + Array(username.utf8) + [0] + Array(password.utf8))
            try secret("AUTH PLAIN \(credentials)", expecting: [235], step: "AUTH PLAIN")
        } else if offersAuthentication("LOGIN") {
            try channel.exchange("AUTH LOGIN", expecting: [334], step: "AUTH LOGIN", deadline: step())
            try secret(base64(Array(username.utf8)), expecting: [334], step: "AUTH LOGIN (user name)")
            try secret(base64(Array(password.utf8)), expecting: [235], step: "AUTH LOGIN (password)")
        } else {
            throw .authentication("smtpURL names a user, but the server offers neither AUTH PLAIN nor AUTH LOGIN")
        }
    }

    /// A command that carries a credential: a rejection is an authentication error.
    private func secret(_ command: String, expecting expected: Set<Int>, step name: String) throws(SMTPError) {
        do {
            try channel.exchange(command, expecting: expected, step: name, deadline: step())
        } catch .rejected(_, let code, let text) {
            throw .authentication("\(name) answered \(code) \(text)")
        }
    }

    private func base64(_ bytes: [UInt8]) -> String {
        var output = [UInt8](repeating: 0, count: (bytes.count + 2) / 3 * 4 + 1)
        let length = EVP_EncodeBlock(&output, bytes, Int32(bytes.count))
        return String(decoding: output.prefix(Int(length)), as: UTF8.self)
    }
}

func asciiUppercased(_ byte: UInt8) -> UInt8 {
    (0x61...0x7A).contains(byte) ? byte & ~0x20 : byte
}
