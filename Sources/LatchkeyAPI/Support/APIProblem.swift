import Foundation
import HTTPServer

/// An RFC 9457 problem as the contract shapes it: a stable `code`, a readable `detail`,
/// the first offending `field`, every failed field in `errors`.
struct APIProblem: Error, Sendable {
    struct FieldError: Encodable, Sendable {
        let field: String
        let code: String
        let detail: String
        let reason: String?
    }

    var status: Int
    var code: String
    var title: String
    var detail: String
    var field: String?
    var reason: String?
    var errors: [FieldError]?
    var headers: [HTTPField] = []

    func response() -> Response {
        let body = ProblemBody(
            type: "about:blank", status: status, code: code, title: title, detail: detail,
            field: field, reason: reason, errors: errors
        )
        let bytes = (try? JSONCoding.encoder.encode(body)).map(Array.init) ?? []
        return Response(
            status: status,
            headers: [HTTPField(name: "Content-Type", value: "application/problem+json"),
                      HTTPField(name: "Cache-Control", value: "no-store")] + headers,
            body: bytes
        )
    }

    private struct ProblemBody: Encodable {
        let type: String
        let status: Int
        let code: String
        let title: String
        let detail: String
        let field: String?
        let reason: String?
        let errors: [FieldError]?
    }
}

extension APIProblem {
    static func invalidArgument(field: String, detail: String) -> APIProblem {
        APIProblem(status: 400, code: "INVALID_ARGUMENT", title: "Invalid argument", detail: detail, field: field,
                   errors: [FieldError(field: field, code: "INVALID_ARGUMENT", detail: detail, reason: nil)])
    }

    static let malformedJSON = APIProblem(
        status: 400, code: "MALFORMED_JSON", title: "Malformed JSON", detail: "The request body is not valid JSON."
    )

    static let unsupportedMediaType = APIProblem(
        status: 415, code: "UNSUPPORTED_MEDIA_TYPE", title: "Unsupported media type",
        detail: "Send the body as JSON with the header Content-Type: application/json."
    )

    static func tooManyAttempts(retryAfter: Int) -> APIProblem {
        APIProblem(
            status: 429, code: "TOO_MANY_ATTEMPTS_TRY_LATER", title: "Too many attempts",
            detail: "Too many attempts. Please try again in \(retryAfter) seconds.",
            headers: [HTTPField(name: "Retry-After", value: String(retryAfter))]
        )
    }

    static let hashingBusy = APIProblem(
        status: 503, code: "SERVICE_UNAVAILABLE", title: "Service unavailable",
        detail: "The server is busy. Please try again in a moment.",
        headers: [HTTPField(name: "Retry-After", value: "1")]
    )
}

enum JSONCoding {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()
}
