import HTTPServer
import Logging

/// The one place where errors become HTTP responses. An error that is not a known
/// problem is a 500 `INTERNAL` whose cause goes to the log, never to the client.
struct ErrorResponder: Sendable {
    let logger: Logger

    func response(for error: any Error, to request: Request) -> Response {
        if let problem = error as? Problem {
            return problem.response()
        }
        logger.error("unhandled error: \(String(reflecting: type(of: error)))", metadata: [
            "request-id": "\(request.requestID)", "route": "\(request.method) \(request.path)",
        ])
        return Problem.internalError.response()
    }
}
