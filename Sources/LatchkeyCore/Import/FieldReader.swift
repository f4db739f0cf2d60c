import AuthCrypto
import JSONStream

/// Typed reads of one object's members, with messages that name the field:
/// `users[3].emailVerified: expected true or false, found a string`.
struct FieldReader {
    let reader: JSONStreamReader
    let path: String

    /// A string, or nil for null.
    func string(_ field: String) throws -> String? {
        let kind = try reader.peekKind()
        switch kind {
        case .null:
            _ = try reader.readScalar()
            return nil
        case .string: return try reader.readScalar().string
        default: throw reader.error("\(path).\(field): expected a string, found \(kind)")
        }
    }

    /// true or false; null reads as false.
    func bool(_ field: String) throws -> Bool {
        let kind = try reader.peekKind()
        guard kind == .bool || kind == .null else { throw reader.error("\(path).\(field): expected true or false, found \(kind)") }
        return try reader.readScalar().bool ?? false
    }

    /// Standard base64, padded as Firebase writes it; nil for null or an empty string.
    func base64(_ field: String) throws -> [UInt8]? {
        _ = try reader.peekKind()
        let location = reader.location
        guard let text = try string(field), !text.isEmpty else { return nil }
        guard let bytes = Base64Padded.decode(text) else { throw JSONStreamError("\(path).\(field): not base64", at: location) }
        return bytes
    }

    /// Milliseconds since 1970 as the export writes them, a string of digits (a number is
    /// taken too); nil for null.
    func epochMilliseconds(_ field: String) throws -> Int64? {
        let kind = try reader.peekKind()
        let location = reader.location
        let expected = "\(path).\(field): expected milliseconds since 1970 (a string of digits)"
        guard kind == .string || kind == .number || kind == .null else { throw JSONStreamError("\(expected), found \(kind)", at: location) }
        let digits: String
        switch try reader.readScalar() {
        case .string(let text), .number(let text): digits = text
        case .null, .bool: return nil
        }
        // 18 digits keep clear of Int64's end; Firebase's times have 13.
        guard (1...18).contains(digits.utf8.count), digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let milliseconds = Int64(digits) else {
            throw JSONStreamError("\(expected), found \(kind == .string ? "\"\(digits.prefix(40))\"" : digits)", at: location)
        }
        return milliseconds
    }
}
