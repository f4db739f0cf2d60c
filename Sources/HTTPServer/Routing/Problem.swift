import FlatJSON

/// A failure the engine answers itself, before or instead of a handler (a malformed head,
/// no route, a body too large, …). The engine only names it: the server's
/// `problemResponder` renders it, so an application gives the engine's failures the same
/// shape, code and caching rules as its own. `fallbackResponse` is for an engine used
/// without one.
public enum Problem: Sendable, Equatable {
    /// The head or the body's framing breaks HTTP/1.1; the reason says which rule, in the
    /// engine's own words (never bytes from the request).
    case badRequest(String)
    case notFound
    /// The engine adds the `Allow` field.
    case methodNotAllowed
    case requestTimeout
    case payloadTooLarge
    case uriTooLong
    case headerFieldsTooLarge
    case expectationFailed
    /// A transfer coding other than chunked.
    case notImplemented
    case versionNotSupported
    /// Over the connection cap; the engine adds `Retry-After`.
    case tooManyConnections
    /// A handler threw and no error responder knew the error.
    case internalError

    public var status: Int {
        switch self {
        case .badRequest: 400
        case .notFound: 404
        case .methodNotAllowed: 405
        case .requestTimeout: 408
        case .payloadTooLarge: 413
        case .uriTooLong: 414
        case .headerFieldsTooLarge: 431
        case .expectationFailed: 417
        case .notImplemented: 501
        case .versionNotSupported: 505
        case .tooManyConnections: 503
        case .internalError: 500
        }
    }

    public var title: String {
        switch self {
        case .badRequest: "Bad Request"
        case .notFound: "Not Found"
        case .methodNotAllowed: "Method Not Allowed"
        case .requestTimeout: "Request Timeout"
        case .payloadTooLarge: "Payload Too Large"
        case .uriTooLong: "URI Too Long"
        case .headerFieldsTooLarge: "Request Header Fields Too Large"
        case .expectationFailed: "Expectation Failed"
        case .notImplemented: "Not Implemented"
        case .versionNotSupported: "HTTP Version Not Supported"
        case .tooManyConnections: "Service Unavailable"
        case .internalError: "Internal Server Error"
        }
    }

    public var detail: String {
        switch self {
        case .badRequest(let reason): "The request is malformed: \(reason)."
        case .notFound: "There is nothing at this path."
        case .methodNotAllowed: "This path does not accept this method; see the Allow header."
        case .requestTimeout: "The request was not received in time."
        case .payloadTooLarge: "The request body is larger than this endpoint accepts."
        case .uriTooLong: "The request line is longer than this server accepts."
        case .headerFieldsTooLarge: "The header section is larger, or has more fields, than this server accepts."
        case .expectationFailed: "Only the 100-continue expectation is supported."
        case .notImplemented: "Only the chunked transfer coding is supported."
        case .versionNotSupported: "This server speaks HTTP/1.0 and HTTP/1.1."
        case .tooManyConnections: "The server has too many open connections; try again shortly."
        case .internalError: "Something went wrong on the server. It has been logged."
        }
    }

    /// Plain RFC 9457, with only its standard members: an application that wants its own
    /// members (a stable `code`, say) passes a `problemResponder`.
    public static func fallbackResponse(_ problem: Problem) -> Response {
        var body = Array("{\"type\":\"about:blank\",\"status\":\(problem.status),\"title\":".utf8)
        FlatJSONObject.appendQuoted(problem.title, to: &body)
        body.append(contentsOf: ",\"detail\":".utf8)
        FlatJSONObject.appendQuoted(problem.detail, to: &body)
        body.append(UInt8(ascii: "}"))
        return Response(
            status: problem.status,
            headers: [HTTPField(name: "Content-Type", value: "application/problem+json"), HTTPField(name: "Cache-Control", value: "no-store")],
            body: body
        )
    }
}
