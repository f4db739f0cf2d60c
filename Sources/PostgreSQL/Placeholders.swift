/// Turns SQLite-style `?` placeholders into PostgreSQL's `$1 … $n`, so one SQL text serves
/// both databases. Done once per distinct SQL text: the result is what gets prepared.
///
/// A `?` is left alone inside a string literal (`'...'`, `E'...'` with backslash escapes),
/// a quoted identifier (`"..."`), a dollar-quoted string (`$tag$...$tag$`), a `--` line
/// comment and a `/* */` comment (nested, as PostgreSQL nests them). PostgreSQL's own
/// `?`, `?|` and `?&` jsonb operators cannot be written in SQL that goes through here: use
/// `jsonb_exists`, `jsonb_exists_any` and `jsonb_exists_all` instead.
enum Placeholders {
    static func rewrite(_ sql: String) -> (sql: String, count: Int) {
        let bytes = Array(sql.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        var count = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            var end = index + 1   // one past what is copied unchanged
            switch byte {
            case UInt8(ascii: "'"):
                let escapes = index > 0 && (bytes[index - 1] | 0x20) == UInt8(ascii: "e")
                    && (index < 2 || !isIdentifierByte(bytes[index - 2]))
                end = quotedEnd(bytes, from: index, quote: byte, backslashEscapes: escapes)
            case UInt8(ascii: "\""):
                end = quotedEnd(bytes, from: index, quote: byte, backslashEscapes: false)
            case UInt8(ascii: "-") where next == UInt8(ascii: "-"):
                end = bytes[index...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count
            case UInt8(ascii: "/") where next == UInt8(ascii: "*"):
                end = blockCommentEnd(bytes, from: index)
            case UInt8(ascii: "$") where index == 0 || !isIdentifierByte(bytes[index - 1]):
                end = dollarQuotedEnd(bytes, from: index) ?? index + 1
            case UInt8(ascii: "?"):
                count += 1
                output.append(UInt8(ascii: "$"))
                output.append(contentsOf: String(count).utf8)
                index += 1
                continue
            default:
                break
            }
            output.append(contentsOf: bytes[index..<end])
            index = end
        }
        return (String(decoding: output, as: UTF8.self), count)
    }

    /// Letters, digits, `_`, `$` and every non-ASCII byte continue an identifier, so `E'`
    /// after one is not an escape-string prefix and `$` inside one starts no dollar quote.
    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"))
    }

    /// One past the closing quote; a doubled quote is part of the text. Unterminated text
    /// runs to the end (the server reports the error).
    private static func quotedEnd(_ bytes: [UInt8], from start: Int, quote: UInt8, backslashEscapes: Bool) -> Int {
        var index = start + 1
        while index < bytes.count {
            if backslashEscapes && bytes[index] == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if bytes[index] == quote {
                if index + 1 < bytes.count && bytes[index + 1] == quote {
                    index += 2
                    continue
                }
                return index + 1
            }
            index += 1
        }
        return bytes.count
    }

    private static func blockCommentEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var depth = 0
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "/") && bytes[index + 1] == UInt8(ascii: "*") {
                depth += 1
                index += 2
            } else if bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/") {
                depth -= 1
                index += 2
                if depth == 0 { return index }
            } else {
                index += 1
            }
        }
        return bytes.count
    }

    /// One past the closing `$tag$` when `start` opens a dollar quote (`$$` or `$tag$`, the
    /// tag an identifier without `$`); nil when it does not (`$1`, a lone `$`).
    private static func dollarQuotedEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start + 1
        if index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            return nil
        }
        while index < bytes.count, bytes[index] != UInt8(ascii: "$") {
            guard isIdentifierByte(bytes[index]) else { return nil }
            index += 1
        }
        guard index < bytes.count else { return nil }
        let tag = bytes[start...index]
        var search = index + 1
        while search + tag.count <= bytes.count {
            if bytes[search..<(search + tag.count)].elementsEqual(tag) {
                return search + tag.count
            }
            search += 1
        }
        return bytes.count
    }
}
