import HTTPServer
import Logging

/// How access lines are written: the `logFormat` setting.
public enum AccessLogFormat: Sendable {
    case text
    case json
}

/// Where access lines go when the process takes them itself: the executable writes each
/// line into its buffered standard error, the fields put there by `AccessLine` as they
/// are made. A message string, a log event and a handler in between cost more than the
/// cheapest request itself (`bench/run` measures the log on against off).
public protocol AccessLineOutput: Sendable {
    /// The format of the lines it writes, which the fields must be rendered in.
    var format: AccessLogFormat { get }

    /// One line: `writeFields` puts its fields (at most `maxFieldBytes`) at the pointer it
    /// is given and returns how many it wrote; the output adds the time and the rest of
    /// the line in its format.
    func writeLine(maxFieldBytes: Int, _ writeFields: (UnsafeMutablePointer<UInt8>) -> Int)
}

/// One line per answered request: method, route template, status, duration, body bytes,
/// request id and client address. Never the raw path or query (a reset link's token), a
/// header or a body; the method and route as `RequestLabels` name them, so a made-up
/// method token is `OTHER`, not the caller's words in the operator's log.
///
/// The fields are rendered once, into the `output` the process gave and in its format;
/// without one they travel, in the configured format, as the message of an info line on
/// the `access` logger (`address=… bytes=… …` in text), for a process with another
/// swift-log handler.
///
/// A class: every request reaches it through the service's observer, and a struct of
/// these members was copied there each time (a retain and a release of each).
final class AccessLog: Sendable {
    let logger: Logger
    let output: (any AccessLineOutput)?
    let clientAddress: ClientAddress
    let format: AccessLogFormat

    init(logger: Logger, output: (any AccessLineOutput)?, clientAddress: ClientAddress, format: AccessLogFormat) {
        self.logger = logger
        self.output = output
        self.clientAddress = clientAddress
        self.format = output?.format ?? format
    }

    func record(_ completed: CompletedRequest, _ labels: RequestLabels) {
        let address = clientAddress.hop(peer: completed.remoteAddress, forwardedFor: completed.forwardedFor)
        let line = AccessLine(
            completed: completed, labels: labels, address: Self.looksLikeAnAddress(address) ? address : "invalid", json: format == .json
        )
        if let output {
            output.writeLine(maxFieldBytes: line.capacity) { line.write(to: $0) }
        } else {
            logger.info(Logger.Message(stringLiteral: line.rendered))
        }
    }

    /// Behind a trusted proxy the address is a hop of `X-Forwarded-For`, which a proxy that
    /// passes the client's header on lets the client write (`1.2.3.4 status=200`, a forged
    /// field in a text line). An IPv4 or IPv6 address is only hex digits, dots and colons.
    /// Runs for every logged request: a loop over the contiguous bytes, not a generic walk
    /// of the string's UTF-8 view (several times the instructions for the same answer).
    static func looksLikeAnAddress(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard !bytes.isEmpty, bytes.count <= 45 else { return false }
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"),
                     UInt8(ascii: "."), UInt8(ascii: ":"):
                    continue
                default:
                    return false
                }
            }
            return true
        }
    }
}
