/// The grammar of chunk extensions (RFC 9112 §7.1.1), checked on the bytes between the
/// chunk size and its CR:
///
///     chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )
///     chunk-ext-name = token; chunk-ext-val = token / quoted-string
///
/// Extensions mean nothing to this server, but junk after a size (`5 junk`, `5x`) is what
/// request smuggling is made of, so only the grammar passes.
enum ChunkExtensions {
    static func isValid(_ bytes: [UInt8]) -> Bool {
        var index = 0
        func skipWhitespace() {
            while index < bytes.count, bytes[index] == ASCII.space || bytes[index] == ASCII.tab { index += 1 }
        }
        func token() -> Bool {
            let start = index
            while index < bytes.count, ASCII.isTokenCharacter(bytes[index]) { index += 1 }
            return index > start
        }
        func quotedString() -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return false }
            index += 1
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index += 1
                    return true
                case UInt8(ascii: "\\"):
                    guard index + 1 < bytes.count, ASCII.isFieldValueCharacter(bytes[index + 1]) else { return false }
                    index += 2
                case let byte where ASCII.isFieldValueCharacter(byte):
                    index += 1
                default:
                    return false
                }
            }
            return false
        }
        while index < bytes.count {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == ASCII.semicolon else { return false }
            index += 1
            skipWhitespace()
            guard token() else { return false }
            let afterName = index
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                index += 1
                skipWhitespace()
                guard token() || quotedString() else { return false }
            } else {
                index = afterName
            }
        }
        return true
    }
}
