import Foundation

/// A real SMTP server for a test (Tests/Tools/mail_sink.py, aiosmtpd in the test venv):
/// plain, or STARTTLS with a certificate the test made, optionally with AUTH. It can be
/// stopped and started again on the same port, to play a mail server that is down.
public final class MailSink {
    private let server: PythonServer
    /// Where the sink writes each message (`.eml`) and its envelope.
    private let messagesDirectory: String
    public var port: Int { server.port }

    /// `refusing` addresses get a permanent 550 at RCPT TO.
    public init(certificate: TestCertificate? = nil, user: String? = nil, password: String? = nil, refusing: [String] = []) throws {
        var options: [String] = refusing.flatMap { ["--refuse", $0] }
        if let certificate { options += ["--cert", certificate.certificatePath, "--key", certificate.keyPath] }
        if let user, let password { options += ["--user", user, "--password", password] }
        messagesDirectory = LatchkeyProcess.makeTemporaryDirectory() + "/messages"
        server = try PythonServer(script: "mail_sink.py", arguments: ["--dir", messagesDirectory] + options)
    }

    /// Starts the server again, on the same port.
    public func start() throws {
        try server.start()
    }

    /// Kills the server, as a crash would: the next connection is refused.
    public func stop() {
        server.stop()
    }

    /// How many messages arrived so far.
    public var count: Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: messagesDirectory)) ?? []).filter { $0.hasSuffix(".eml") }.count
    }

    /// The delivered messages, decoded by Python's `email` package (as a mail client
    /// would), once at least `count` are there or `seconds` have passed.
    public func messages(atLeast count: Int, within seconds: Double = 15) throws -> [DeliveredMail] {
        let deadline = Date().addingTimeInterval(seconds)
        while self.count < count, Date() < deadline { usleep(50_000) }
        guard self.count > 0 else { return [] }
        let json = try runPython(Self.decoder, arguments: [messagesDirectory])
        return try JSONDecoder().decode([DeliveredMail].self, from: Data(json.utf8))
    }

    private static let decoder = #"""
    import email, json, os, sys
    from email import policy
    folder = sys.argv[1]
    found = []
    for name in sorted(n for n in os.listdir(folder) if n.endswith(".eml")):
        raw = open(os.path.join(folder, name), "rb").read()
        envelope = [line for line in open(os.path.join(folder, name[:-4] + ".envelope")).read().split("\n") if line]
        message = email.message_from_bytes(raw, policy=policy.default)
        found.append({
            "mailFrom": envelope[0], "rcptTo": envelope[1:],
            "from": str(message["From"]), "to": str(message["To"]), "subject": str(message["Subject"]),
            "date": str(message["Date"] or ""), "messageID": str(message["Message-ID"] or ""),
            "autoSubmitted": str(message["Auto-Submitted"] or ""),
            "text": message.get_body(("plain",)).get_content(), "html": message.get_body(("html",)).get_content(),
            "transferEncodings": [str(part["Content-Transfer-Encoding"]) for part in message.iter_parts()],
            "sevenBit": all(byte < 128 for byte in raw),
            "longestLine": max(len(line) for line in raw.split(b"\r\n")),
        })
    print(json.dumps(found))
    """#
}

/// One message as the SMTP server received it, decoded.
public struct DeliveredMail: Decodable {
    public let mailFrom: String
    public let rcptTo: [String]
    public let from: String
    public let to: String
    public let subject: String
    public let date: String
    public let messageID: String
    public let autoSubmitted: String
    public let text: String
    public let html: String
    public let transferEncodings: [String]
    public let sevenBit: Bool
    public let longestLine: Int

    /// The first link in the plain text that starts with `prefix`.
    public func link(startingWith prefix: String) -> String? {
        text.split(whereSeparator: \.isWhitespace).map(String.init).first { $0.hasPrefix(prefix) }
    }
}

/// A self-signed certificate and its key, made with the `openssl` command for one test.
public struct TestCertificate {
    public let certificatePath: String
    public let keyPath: String

    /// `names` is the subjectAltName list, e.g. `DNS:localhost,IP:127.0.0.1`.
    public init(names: String = "DNS:localhost,IP:127.0.0.1") throws {
        let directory = LatchkeyProcess.makeTemporaryDirectory()
        certificatePath = directory + "/cert.pem"
        keyPath = directory + "/key.pem"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", keyPath, "-out", certificatePath,
            "-days", "2", "-subj", "/CN=Latchkey test mail server", "-addext", "subjectAltName=\(names)",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestError("openssl req failed with status \(process.terminationStatus)") }
    }
}
