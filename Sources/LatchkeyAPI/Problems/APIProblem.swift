import HTTPServer

/// An RFC 9457 problem as the contract shapes it: a stable `code`, a readable `detail`,
/// the first offending `field`, every failed field in `errors`. `response()` is the one
/// renderer of problems: the engine's own failures come here too (`ErrorResponder`).
struct APIProblem: Error, Sendable {
    struct FieldError: Sendable {
        let field: String
        let code: WireCode
        /// The problem's title when this is the first (or only) failed field.
        var title: String = ""
        let detail: String
        let reason: String?
    }

    var status: Int
    var code: WireCode
    var title: String
    var detail: String
    var field: String?
    var reason: String?
    var errors: [FieldError]?
    var headers: [HTTPField] = []

    func response() -> Response {
        var json = JSONObjectWriter()
        json.field("type", "about:blank")
        json.field("status", Int64(status))
        json.field("code", code.rawValue)
        json.field("title", title)
        json.field("detail", detail)
        if let field { json.field("field", field) }
        if let reason { json.field("reason", reason) }
        if let errors {
            json.field("errors", jsonArray: errors.map { error in
                var item = JSONObjectWriter()
                item.field("field", error.field)
                item.field("code", error.code.rawValue)
                item.field("detail", error.detail)
                if let reason = error.reason { item.field("reason", reason) }
                return item.finish()
            })
        }
        return Response(
            status: status,
            headers: [HTTPField(name: "Content-Type", value: "application/problem+json"),
                      HTTPField(name: "Cache-Control", value: "no-store")] + headers,
            body: json.finish()
        )
    }
}

extension APIProblem {
    static func invalidArgument(field: String, detail: String) -> APIProblem {
        APIProblem(status: 400, code: .invalidArgument, title: "Invalid argument", detail: detail, field: field,
                   errors: [FieldError(field: field, code: .invalidArgument, detail: detail, reason: nil)])
    }

    static let malformedJSON = APIProblem(
        status: 400, code: .malformedJSON, title: "Malformed JSON", detail: "The request body is not valid JSON."
    )

    static let unsupportedMediaType = APIProblem(
        status: 415, code: .unsupportedMediaType, title: "Unsupported media type",
        detail: "Send the body as JSON with the header Content-Type: application/json."
    )

    static let unsupportedFormMediaType = APIProblem(
        status: 415, code: .unsupportedMediaType, title: "Unsupported media type",
        detail: "Send the form with the header Content-Type: application/x-www-form-urlencoded."
    )

    static func tooManyAttempts(retryAfter: Int) -> APIProblem {
        APIProblem(
            status: 429, code: .tooManyAttempts, title: "Too many attempts",
            detail: "Too many attempts. Please try again in \(retryAfter) seconds.",
            headers: [HTTPField(name: "Retry-After", value: String(retryAfter))]
        )
    }

    static let unsupportedMultipart = APIProblem(
        status: 415, code: .unsupportedMediaType, title: "Unsupported media type",
        detail: "Send the form as multipart/form-data with a boundary, the picture in part file (curl -F file=@me.jpg)."
    )

    /// The hashing queue is full or the database stayed locked: shed load, do not queue.
    static let serviceBusy = APIProblem(
        status: 503, code: .serviceUnavailable, title: "Service unavailable",
        detail: "The server is busy. Please try again in a moment.",
        headers: [HTTPField(name: "Retry-After", value: "1")]
    )
}
