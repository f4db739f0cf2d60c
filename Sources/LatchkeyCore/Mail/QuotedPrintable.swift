/// Quoted-printable (RFC 2045 §6.7): 7-bit lines of at most 76 characters that any mail
/// server carries unchanged, whatever the templates hold (UTF-8, long HTML lines).
enum QuotedPrintable {
    static let maximumLineLength = 76
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// `text`'s UTF-8 bytes encoded; its line breaks (LF or CRLF) stay line breaks.
    static func encode(_ text: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + text.utf8.count / 8)
        let lines = Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false)
        for (number, rawLine) in lines.enumerated() {
            if number > 0 { output.append(contentsOf: [0x0D, 0x0A]) }
            let line = rawLine.last == 0x0D ? rawLine.dropLast() : rawLine
            encodeLine(line, into: &output)
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func encodeLine(_ line: ArraySlice<UInt8>, into output: inout [UInt8]) {
        var column = 0
        for (offset, byte) in zip(line.indices, line) {
            let isLast = offset == line.index(before: line.endIndex)
            // Spaces and tabs travel as they are except at the end of a line, where
            // transports may strip them.
            let literal = (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "=")) || ((byte == 0x20 || byte == 0x09) && !isLast)
            let width = literal ? 1 : 3
            // A soft break (`=` at the end) keeps each line within the limit, the `=` included.
            let fitsAsLast = isLast && column + width <= maximumLineLength
            if column + width > maximumLineLength - 1, !fitsAsLast {
                output.append(contentsOf: [UInt8(ascii: "="), 0x0D, 0x0A])
                column = 0
            }
            if literal {
                output.append(byte)
            } else {
                output.append(contentsOf: [UInt8(ascii: "="), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]])
            }
            column += width
        }
    }
}
