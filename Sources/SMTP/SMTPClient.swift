import ClientSocket
import Synchronization

/// Submits mail to one server, keeping the connection open between messages sent close
/// together (a backlog goes out over one conversation) and closing it when told the
/// batch is over. Blocking: call it from a thread of its own, never an event loop.
public final class SMTPClient: Sendable {
    public struct Settings: Sendable {
        public var endpoint: SMTPEndpoint
        /// Refuse to go on without TLS (no STARTTLS offered on an `smtp://` server).
        public var requireTLS: Bool
        /// The name this client gives in EHLO: its own host name or address literal.
        public var heloName: String
        public var connectTimeout: Double = 10
        /// The longest wait for any one reply or write.
        public var stepTimeout: Double = 60

        public init(endpoint: SMTPEndpoint, requireTLS: Bool, heloName: String) {
            self.endpoint = endpoint
            self.requireTLS = requireTLS
            self.heloName = Self.validHeloName(heloName)
        }

        /// A host name of letters, digits, dots and hyphens, or an address literal as RFC
        /// 5321 writes it; anything else would make a malformed EHLO.
        private static func validHeloName(_ name: String) -> String {
            if name.utf8.allSatisfy({ $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":") || (0x30...0x39).contains($0) || (0x61...0x66).contains(asciiLowercased($0)) }),
               name.contains(":") {
                return "[IPv6:\(name)]"
            }
            if !name.isEmpty, name.utf8.allSatisfy({ $0 == UInt8(ascii: ".") || (0x30...0x39).contains($0) }) { return "[\(name)]" }
            let hostName = name.utf8.allSatisfy { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x61...0x7A).contains(asciiLowercased($0)) }
            return !name.isEmpty && hostName ? name : "localhost"
        }
    }

    private let settings: Settings
    private let tls: TLSContext
    private let session = Mutex<SMTPSession?>(nil)

    public init(settings: Settings, caFile: String? = nil) throws(SMTPError) {
        self.settings = settings
        do {
            tls = try TLSContext(caFile: caFile)
        } catch {
            throw SMTPError(error)
        }
    }

    /// Submits `message` (RFC 5322 text) from `sender` to `recipient` (bare addresses).
    /// A failure on a reused connection before the server took any of the message (it
    /// had closed an idle conversation) is retried once on a new connection.
    public func send(from sender: String, to recipient: String, message: [UInt8]) throws(SMTPError) {
        try Self.checkEnvelope(sender)
        try Self.checkEnvelope(recipient)
        try session.withLock { (current) throws(SMTPError) in
            let reused = current != nil
            var dataStarted = false
            do throws(SMTPError) {
                let conversation: SMTPSession
                if let current { conversation = current } else { conversation = try SMTPSession(settings: settings, tls: tls) }
                current = conversation
                try conversation.send(from: sender, to: recipient, message: message, dataStarted: &dataStarted)
            } catch {
                current = nil
                guard reused, !dataStarted, !error.isPermanent else { throw error }
                let fresh = try SMTPSession(settings: settings, tls: tls)
                current = fresh
                var retriedDataStarted = false
                try fresh.send(from: sender, to: recipient, message: message, dataStarted: &retriedDataStarted)
            }
        }
    }

    /// Ends the open conversation, if any: the batch is over.
    public func finishBatch() {
        session.withLock { current in
            current?.quit()
            current = nil
        }
    }

    /// An address fit for `MAIL FROM:<...>` / `RCPT TO:<...>`: no spaces, controls or
    /// angle brackets that could end the command or start another.
    private static func checkEnvelope(_ address: String) throws(SMTPError) {
        let bytes = Array(address.utf8)
        guard !bytes.isEmpty, bytes.count <= 254, bytes.contains(UInt8(ascii: "@")),
              !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") })
        else { throw .badAddress("'\(address)' is not a bare mail address") }
    }
}
