/// A PostgreSQL array literal of texts, `{"a","b\"c"}`, bound as one parameter and read
/// with `= ANY(CAST(? AS TEXT[]))`: one prepared statement for a list of any length.
/// Every element is quoted, with `"` and `\` escaped, so no element can end the literal
/// early, split in two, or read as NULL.
enum PostgreSQLTextArray {
    static func literal(_ texts: [String]) -> String {
        // Built as UTF-8 bytes: both escaped characters are ASCII, so no multi-byte
        // sequence can hold one, and the bytes stay valid UTF-8.
        var literal: [UInt8] = [UInt8(ascii: "{")]
        literal.reserveCapacity(texts.reduce(2) { $0 + $1.utf8.count + 3 })
        for (index, text) in texts.enumerated() {
            if index > 0 { literal.append(UInt8(ascii: ",")) }
            literal.append(UInt8(ascii: "\""))
            for byte in text.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { literal.append(UInt8(ascii: "\\")) }
                literal.append(byte)
            }
            literal.append(UInt8(ascii: "\""))
        }
        literal.append(UInt8(ascii: "}"))
        return String(decoding: literal, as: UTF8.self)
    }
}
