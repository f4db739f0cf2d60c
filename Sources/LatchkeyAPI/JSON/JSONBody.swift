import FlatJSON
import HTTPServer
import LatchkeyCore

/// A JSON object request body with typed field access. Unknown fields are ignored; a
/// wrong type or a missing required field is 400 `INVALID_ARGUMENT` naming the field.
struct JSONBody {
    private let object: FlatJSONObject

    /// 415 for another media type, 400 `MALFORMED_JSON` for bytes that are not JSON.
    init(_ request: Request) throws(APIProblem) {
        guard request.head.hasMediaType("application/json") else { throw .unsupportedMediaType }
        let parsed = request.body.withUnsafeBufferPointer { bytes -> (object: FlatJSONObject?, wellFormed: Bool) in
            let object = FlatJSONObject(parsing: bytes)
            // An object of scalar members only is well-formed JSON, one level deep, and the
            // second pass (every JSON POST read its body twice) would only say so again.
            // Anything else is checked whole: "not JSON" or "JSON, but not an object", and
            // the nesting limit counted from the body's top.
            if let object, !object.values.values.contains(.composite) { return (object, true) }
            return (object, FlatJSONObject.isWellFormed(bytes))
        }
        guard parsed.wellFormed else { throw .malformedJSON }
        guard let object = parsed.object else {
            throw .invalidArgument(field: "body", detail: "The body must be a JSON object.")
        }
        self.object = object
    }

    /// A route's head check: 415 for another media type before the body is read, so a
    /// large body of the wrong type is told its type, not its size (413).
    static let admission: @Sendable (RequestHead) -> Response? = { head in
        head.hasMediaType("application/json") ? nil : APIProblem.unsupportedMediaType.response()
    }

    func string(_ field: String) throws(APIProblem) -> String {
        guard let value = try optionalString(field) else {
            throw .invalidArgument(field: field, detail: "\(field) is required.")
        }
        return value
    }

    func optionalString(_ field: String) throws(APIProblem) -> String? {
        switch object[field] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw .invalidArgument(field: field, detail: "\(field) must be a string.")
        }
    }

    /// Absent or a string; `null` is a wrong type, not "absent" (a PATCH that sends
    /// `{"displayName": null}` asks for something the field cannot be).
    func stringIfPresent(_ field: String) throws(APIProblem) -> String? {
        switch object[field] {
        case nil: return nil
        case .string(let text)?: return text
        default: throw .invalidArgument(field: field, detail: "\(field) must be a string.")
        }
    }

    /// A member that must be present as a JSON object or array (its content is read by
    /// the domain: a WebAuthn credential); 400 `INVALID_ARGUMENT` when absent or a scalar.
    func requireContainer(_ field: String) throws(APIProblem) {
        guard case .composite? = object[field] else {
            throw .invalidArgument(field: field, detail: "\(field) must be an object.")
        }
    }

    /// Absent, explicitly null, or a string: PATCH tells "remove" from "leave as is".
    func nullableString(_ field: String) throws(APIProblem) -> String?? {
        switch object[field] {
        case nil: return .none
        case .null?: return .some(nil)
        case .string(let text)?: return .some(text)
        default: throw .invalidArgument(field: field, detail: "\(field) must be a string or null.")
        }
    }
}
