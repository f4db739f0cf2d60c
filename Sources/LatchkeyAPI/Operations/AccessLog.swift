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
        logger.info(
            Logger.Message(
                stringLiteral: AccessLine.render(
                    completed, labels: labels,
                    address: clientAddress.hop(peer: completed.remoteAddress, forwardedFor: completed.forwardedFor), json: format == .json
                )
            )
        )
    }
}
