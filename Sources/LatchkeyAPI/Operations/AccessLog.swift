import HTTPServer
import Logging

/// One line per answered request through swift-log (label `access`, level info): method,
/// route template, status, duration, body bytes, request id and client address. Never
/// the raw path or query (a reset link's token), a header or a body.
struct AccessLog: Sendable {
    let logger: Logger
    let clientAddress: ClientAddress

    func record(_ completed: CompletedRequest) {
        logger.info("request", metadata: [
            "method": .string(completed.method),
            "route": .string(completed.route),
            "status": .stringConvertible(completed.status),
            "duration_ms": .string(Self.milliseconds(completed.nanoseconds)),
            "bytes": .string(completed.bodyBytes.map(String.init) ?? "stream"),
            "request_id": .string(completed.requestID),
            "address": .string(clientAddress.hop(peer: completed.remoteAddress, forwardedFor: completed.forwardedFor)),
        ])
    }

    /// Three decimals, without Foundation's formatter.
    static func milliseconds(_ nanoseconds: UInt64) -> String {
        let micros = nanoseconds / 1000
        let fraction = String(micros % 1000)
        return "\(micros / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
