import HTTPServer
import Logging

/// How access lines are written: the `logFormat` setting.
public enum AccessLogFormat: Sendable {
    case text
    case json
}

/// One line per answered request through swift-log (label `access`, level info): method,
/// route template, status, duration, body bytes, request id and client address. Never
/// the raw path or query (a reset link's token), a header or a body; the method and route
/// as `RequestLabels` name them, so a made-up method token is `OTHER`, not the caller's
/// words in the operator's log.
///
/// The fields are rendered once, here, in the configured format, and travel as the
/// message: a metadata dictionary, its boxed values and a generic formatter cost more
/// than the cheapest request itself (`bench/run` measures the log on against off). The
/// executable's handler splices the rendered fields into its line; any other handler
/// prints them as the message (`address=… bytes=… …` in text).
struct AccessLog: Sendable {
    let logger: Logger
    let clientAddress: ClientAddress
    let format: AccessLogFormat

    func record(_ completed: CompletedRequest, _ labels: RequestLabels) {
        let address = clientAddress.hop(peer: completed.remoteAddress, forwardedFor: completed.forwardedFor)
        logger.info(
            Logger.Message(
                stringLiteral: AccessLine.render(
                    completed, labels: labels, address: Self.looksLikeAnAddress(address) ? address : "invalid", json: format == .json
                )
            )
        )
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
