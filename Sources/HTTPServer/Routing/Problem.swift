/// RFC 9457 problem details for the failures the engine itself answers (404, 405, 413, …),
/// in the same shape the application uses for its own errors.
public struct Problem: Error, Sendable {
    public var status: Int
    public var code: String
    public var title: String
    public var detail: String

    public init(status: Int, code: String, title: String, detail: String) {
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
    }

    public func response(headers: [HTTPField] = []) -> Response {
        let body = "{\"type\":\"about:blank\",\"status\":\(status),\"code\":\(JSONString.quote(code)),\"title\":\(JSONString.quote(title)),\"detail\":\(JSONString.quote(detail))}"
        return Response(
            status: status,
            headers: [HTTPField(name: "Content-Type", value: "application/problem+json")] + headers,
            body: Array(body.utf8)
        )
    }

    static let notFound = Problem(status: 404, code: "NOT_FOUND", title: "Not Found", detail: "There is nothing at this path.")
    static let methodNotAllowed = Problem(status: 405, code: "METHOD_NOT_ALLOWED", title: "Method Not Allowed", detail: "This path does not accept this method; see the Allow header.")
    static let payloadTooLarge = Problem(status: 413, code: "PAYLOAD_TOO_LARGE", title: "Payload Too Large", detail: "The request body is larger than this endpoint accepts.")
    static let requestTimeout = Problem(status: 408, code: "REQUEST_TIMEOUT", title: "Request Timeout", detail: "The request was not received in time.")
    static let uriTooLong = Problem(status: 414, code: "URI_TOO_LONG", title: "URI Too Long", detail: "The request line is longer than this server accepts.")
    static let headerFieldsTooLarge = Problem(status: 431, code: "HEADER_FIELDS_TOO_LARGE", title: "Request Header Fields Too Large", detail: "The header section is larger, or has more fields, than this server accepts.")
    static let notImplemented = Problem(status: 501, code: "NOT_IMPLEMENTED", title: "Not Implemented", detail: "Only the chunked transfer coding is supported.")
    static let versionNotSupported = Problem(status: 505, code: "HTTP_VERSION_NOT_SUPPORTED", title: "HTTP Version Not Supported", detail: "This server speaks HTTP/1.0 and HTTP/1.1.")
    static let expectationFailed = Problem(status: 417, code: "EXPECTATION_FAILED", title: "Expectation Failed", detail: "Only the 100-continue expectation is supported.")
    static let tooManyConnections = Problem(status: 503, code: "SERVICE_UNAVAILABLE", title: "Service Unavailable", detail: "The server has too many open connections; try again shortly.")
    public static let internalError = Problem(status: 500, code: "INTERNAL", title: "Internal Server Error", detail: "Something went wrong on the server. It has been logged.")

    static func badRequest(_ reason: String) -> Problem {
        Problem(status: 400, code: "BAD_REQUEST", title: "Bad Request", detail: "The request is malformed: \(reason).")
    }
}

enum JSONString {
    /// A JSON string literal for `text`, escaping quotes, backslashes and control characters.
    static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
