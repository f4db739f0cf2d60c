/// The elements of a comma-separated header field (RFC 9110 §5.6.1), split on the comma
/// byte and trimmed of spaces and tabs, empty elements dropped. Split as bytes: a Swift
/// `Character` can hold a comma together with a combining mark that follows it, so a
/// split on Characters would not see that comma.
enum HeaderList {
    static func elements(of field: String) -> [Substring] {
        field.utf8.split(separator: UInt8(ascii: ",")).compactMap { element in
            let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
            guard let first = element.firstIndex(where: { !isSpace($0) }), let last = element.lastIndex(where: { !isSpace($0) }) else { return nil }
            return Substring(element[first...last])
        }
    }
}
