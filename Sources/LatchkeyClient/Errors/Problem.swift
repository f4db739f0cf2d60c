import Foundation

/// The server's refusal: RFC 9457 problem details as docs/api.md ("Errors") defines them.
/// Branch on `code`; show `detail` (or `detail(for:)` beside each field of a form).
public struct Problem: Error, Sendable, Hashable, Decodable {
    public let status: Int
    public let code: ErrorCode
    public let title: String?
    /// A sentence for people.
    public let detail: String
    /// The first offending input, where there is one (`email`, `password`, `displayName`…).
    public let field: String?
    /// A finer cause: a `DISPLAY_NAME_INVALID` reason, or `TAKEN` / `RESERVED`.
    public let reason: String?
    /// Every failed field when a request fails validation on several at once.
    public let errors: [FieldError]
    /// Seconds to wait before trying again (`Retry-After` of 429 and 503 answers).
    public internal(set) var retryAfter: Int?
    /// The answer's `X-Request-Id`, which ties a user's report to the server's log lines.
    public internal(set) var requestID: String?

    public init(
        status: Int, code: ErrorCode, title: String? = nil, detail: String, field: String? = nil, reason: String? = nil,
        errors: [FieldError] = [], retryAfter: Int? = nil, requestID: String? = nil
    ) {
        (self.status, self.code, self.title, self.detail) = (status, code, title, detail)
        (self.field, self.reason, self.errors) = (field, reason, errors)
        (self.retryAfter, self.requestID) = (retryAfter, requestID)
    }

    private enum CodingKeys: String, CodingKey { case status, code, title, detail, field, reason, errors }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decode(Int.self, forKey: .status)
        code = try container.decode(ErrorCode.self, forKey: .code)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        detail = try container.decode(String.self, forKey: .detail)
        field = try container.decodeIfPresent(String.self, forKey: .field)
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
        errors = try container.decodeIfPresent([FieldError].self, forKey: .errors) ?? []
    }

    /// What to show beside `field` in a form: its entry in `errors`, else the problem's own
    /// `detail` when it names that field; nil when the field is fine.
    public func detail(for field: String) -> String? {
        if let entry = errors.first(where: { $0.field == field }) { return entry.detail }
        return self.field == field ? detail : nil
    }

    /// The fields this problem names, in the server's order.
    public var fields: [String] {
        let listed = errors.map(\.field)
        guard let field, !listed.contains(field) else { return listed }
        return [field] + listed
    }
}

/// One failed field of a request (an entry of the problem's `errors`).
public struct FieldError: Sendable, Hashable, Codable {
    public let field: String
    public let code: ErrorCode
    public let detail: String
    /// For display names: which rule failed, or `TAKEN` / `RESERVED`.
    public let reason: String?

    public init(field: String, code: ErrorCode, detail: String, reason: String? = nil) {
        (self.field, self.code, self.detail, self.reason) = (field, code, detail, reason)
    }
}
