import Foundation
import HTTPServer

/// A JSON object request body with typed field access. Unknown fields are ignored; a
/// wrong type or a missing required field is 400 `INVALID_ARGUMENT` naming the field.
struct JSONBody {
    private let object: [String: Any]

    /// 415 for another media type, 400 `MALFORMED_JSON` for bytes that are not a JSON object.
    init(_ request: Request) throws(APIProblem) {
        let contentType = request.header("content-type")?.lowercased() ?? ""
        guard contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) == "application/json" else {
            throw .unsupportedMediaType
        }
        guard let value = try? JSONSerialization.jsonObject(with: Data(request.body)) else { throw .malformedJSON }
        guard let object = value as? [String: Any] else {
            throw .invalidArgument(field: "body", detail: "The body must be a JSON object.")
        }
        self.object = object
    }

    func string(_ field: String) throws(APIProblem) -> String {
        guard let value = try optionalString(field) else {
            throw .invalidArgument(field: field, detail: "\(field) is required.")
        }
        return value
    }

    func optionalString(_ field: String) throws(APIProblem) -> String? {
        guard let value = object[field], !(value is NSNull) else { return nil }
        guard let text = value as? String else { throw .invalidArgument(field: field, detail: "\(field) must be a string.") }
        return text
    }

    /// Absent, explicitly null, or a string: PATCH tells "remove" from "leave as is".
    func nullableString(_ field: String) throws(APIProblem) -> String?? {
        guard let value = object[field] else { return .none }
        if value is NSNull { return .some(nil) }
        guard let text = value as? String else { throw .invalidArgument(field: field, detail: "\(field) must be a string or null.") }
        return .some(text)
    }
}
