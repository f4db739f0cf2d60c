/// A PostgreSQL array literal of texts, `{"a","b\"c"}`, bound as one parameter and read
/// with `= ANY(CAST(? AS TEXT[]))`: one prepared statement for a list of any length.
/// Every element is quoted, with `"` and `\` escaped, so no element can end the literal
/// early, split in two, or read as NULL.
enum PostgreSQLTextArray {
    static func literal(_ texts: [String]) -> String {
        var literal = "{"
        for (index, text) in texts.enumerated() {
            if index > 0 { literal += "," }
            literal += "\""
            for character in text.unicodeScalars {
                if character == "\"" || character == "\\" { literal += "\\" }
                literal.unicodeScalars.append(character)
            }
            literal += "\""
        }
        return literal + "}"
    }
}
