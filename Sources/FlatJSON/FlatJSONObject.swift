/// A JSON object read by hand in one pass, with its scalar members kept and nested
/// arrays or objects checked but kept only as `.composite` (a member's array of strings is
/// kept when asked, for an ID token's `aud` and `amr`). A member named twice keeps its
/// last value, as RFC 7519 §4 allows a JWT parser to. JWT claim sets and request
/// bodies of this server are flat; on the hot path (every authenticated request)
/// Foundation's `JSONDecoder` cost several times the HMAC, and `JSONSerialization` would
/// pull all of Foundation (and ICU) into the process.
public struct FlatJSONObject: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        case string(String)
        case integer(Int64)
        case number(Double)
        case bool(Bool)
        case null
        /// An array of strings: for writing (a token's `amr`), and read where the parse keeps
        /// string arrays (`init(parsing:keepingStringArrays:)`); otherwise reading keeps arrays
        /// as `.composite`.
        case strings([String])
        /// An array or object: well-formed, not represented.
        case composite
    }

    /// Members by their names' bytes (`ExactBytes`): a name is a protocol token, and two
    /// spellings of one name under Unicode equivalence are two members, as they are to
    /// every other JSON reader.
    public private(set) var values: [ExactBytes: Value] = Dictionary(minimumCapacity: 12)

    public init(_ values: [ExactBytes: Value]) {
        self.values = values
    }

    public subscript(key: String) -> Value? { values[ExactBytes(key)] }

    /// Compact JSON with sorted keys; `.composite` members are left out (there is
    /// nothing to write for them).
    public func serialized() -> [UInt8] {
        var writer = FlatJSONWriter()
        for (key, value) in values.sorted(by: { $0.key.text.utf8.lexicographicallyPrecedes($1.key.text.utf8) }) {
            writer.write(key.text, value)
        }
        return writer.finish()
    }

    /// Appends `text` as a JSON string literal: quote, backslash and control characters
    /// escaped (RFC 8259 §7). Plain text, the usual case, is copied in one go.
    public static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        // On the contiguous UTF-8 buffer: iterating a String's UTF8View byte by byte costs
        // several times more, and this runs for every claim and every log field.
        if let done: Void = text.utf8.withContiguousStorageIfAvailable({ appendQuoted(utf8: $0, to: &bytes) }) { return done }
        var copy = text
        copy.withUTF8 { appendQuoted(utf8: $0, to: &bytes) }
    }

    private static func appendQuoted(utf8 text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        if needsNoEscape(text) {
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: text)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        bytes.append(contentsOf: [UInt8](unsafeUninitializedCapacity: 2 + 6 * text.count) { buffer, written in
            written = writeQuoted(text, to: buffer.baseAddress!)
        })
    }

    /// Writes `text` as a JSON string literal at `out`, which has room for the worst case,
    /// `2 + 6 * text.count` bytes (every byte a `\u00XX`); returns the bytes written. For
    /// callers that size a whole line once (the access log).
    public static func writeQuoted(_ text: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 0
        func put(_ byte: UInt8) {
            out[count] = byte
            count += 1
        }
        put(UInt8(ascii: "\""))
        if let base = text.baseAddress, needsNoEscape(text) {
            (out + 1).update(from: base, count: text.count)
            count += text.count
            put(UInt8(ascii: "\""))
            return count
        }
        for byte in text {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): put(UInt8(ascii: "\\")); put(byte)
            case 0x0A: put(UInt8(ascii: "\\")); put(UInt8(ascii: "n"))
            case 0x0D: put(UInt8(ascii: "\\")); put(UInt8(ascii: "r"))
            case 0x09: put(UInt8(ascii: "\\")); put(UInt8(ascii: "t"))
            case 0..<0x20:
                for escape in #"\u00"#.utf8 { put(escape) }
                put(hexDigit(byte >> 4))
                put(hexDigit(byte & 0x0F))
            default: put(byte)
            }
        }
        put(UInt8(ascii: "\""))
        return count
    }

    /// Whether no byte of `text` needs an escape, eight bytes at a time: every claim, token
    /// and log field passes through here, and testing byte by byte cost some ten
    /// instructions a byte (a refresh quotes about 900). For each word, a byte below 0x20,
    /// or one that is `"` or `\` (zero once XORed with it), sets its high bit in the
    /// classic "has a byte less than n" test, which tells exactly whether any byte does.
    static func needsNoEscape(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func hasByteBelow(_ limit: UInt64, _ word: UInt64) -> Bool {
            (word &- ones &* limit) & ~word & highBits != 0
        }
        var offset = 0
        while offset + 8 <= text.count {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if hasByteBelow(0x20, word) || hasByteBelow(1, word ^ (ones &* 0x22)) || hasByteBelow(1, word ^ (ones &* 0x5C)) {
                return false
            }
            offset += 8
        }
        while offset < text.count {
            guard isPlain(text[offset]) else { return false }
            offset += 1
        }
        return true
    }

    /// Needs no escape in a JSON string.
    private static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    public func string(_ key: String) -> String? {
        if case .string(let value)? = self[key] { value } else { nil }
    }

    public func integer(_ key: String) -> Int64? {
        if case .integer(let value)? = self[key] { value } else { nil }
    }

    public func bool(_ key: String) -> Bool? {
        if case .bool(let value)? = self[key] { value } else { nil }
    }

    /// Whether `bytes` is exactly one JSON value of any kind (RFC 8259), whitespace around:
    /// tells "not JSON" from "JSON, but not an object".
    public static func isWellFormed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var reader = Reader(bytes: bytes)
        reader.skipWhitespace()
        guard reader.value() != nil else { return false }
        reader.skipWhitespace()
        return reader.atEnd
    }

    /// Nil unless `bytes` is exactly one JSON object (RFC 8259), whitespace around. With
    /// `keepingStringArrays`, a member that is an array of strings only is kept as
    /// `.strings` (an ID token's `aud` and `amr`); other arrays stay `.composite`.
    public init?(parsing bytes: UnsafeBufferPointer<UInt8>, keepingStringArrays: Bool = false) {
        var reader = Reader(bytes: bytes, keepsStringArrays: keepingStringArrays)
        reader.skipWhitespace()
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        reader.skipWhitespace()
        if !reader.take(UInt8(ascii: "}")) {
            repeat {
                reader.skipWhitespace()
                guard let key = reader.string() else { return nil }
                reader.skipWhitespace()
                guard reader.take(UInt8(ascii: ":")) else { return nil }
                reader.skipWhitespace()
                guard let value = reader.value() else { return nil }
                values[ExactBytes(key)] = value
                reader.skipWhitespace()
            } while reader.take(UInt8(ascii: ","))
            guard reader.take(UInt8(ascii: "}")) else { return nil }
        }
        reader.skipWhitespace()
        guard reader.atEnd else { return nil }
    }
}

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Whether a member's array of strings is read as `.strings` (members only: arrays
    /// nested deeper are checked and passed over).
    var keepsStringArrays = false
    var index = 0
    var depth = 0
    /// Deeper nesting is refused rather than followed: a bound on work and stack.
    static let maxDepth = 32

    var atEnd: Bool { index == bytes.count }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func value() -> FlatJSONObject.Value? {
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""): return string().map { .string($0) }
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        case UInt8(ascii: "[") where keepsStringArrays && depth == 0:
            let start = index
            if let strings = stringArray() { return .strings(strings) }
            index = start
            return skipComposite() ? .composite : nil
        case UInt8(ascii: "["), UInt8(ascii: "{"): return skipComposite() ? .composite : nil
        default: return number()
        }
    }

    /// An array whose elements are all strings; nil (the position then unspecified) at
    /// anything else, for the caller to read it again as a composite.
    private mutating func stringArray() -> [String]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var strings: [String] = []
        skipWhitespace()
        if take(UInt8(ascii: "]")) { return strings }
        repeat {
            skipWhitespace()
            guard let string = string() else { return nil }
            strings.append(string)
            skipWhitespace()
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? strings : nil
    }

    /// Checks an array or object and moves past it.
    private mutating func skipComposite() -> Bool {
        guard depth < Self.maxDepth else { return false }
        depth += 1
        defer { depth -= 1 }
        let isObject = bytes[index] == UInt8(ascii: "{")
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        index += 1
        skipWhitespace()
        if take(close) { return true }
        repeat {
            skipWhitespace()
            if isObject {
                guard string() != nil else { return false }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipWhitespace()
            }
            guard value() != nil else { return false }
            skipWhitespace()
        } while take(UInt8(ascii: ","))
        return take(close)
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// `-? int frac? exp?`; integers that fit stay exact (`exp`, `iat`).
    private mutating func number() -> FlatJSONObject.Value? {
        let start = index
        _ = take(UInt8(ascii: "-"))
        guard let first = peekDigit() else { return nil }
        index += 1
        if first != 0 { while peekDigit() != nil { index += 1 } }
        var isInteger = true
        if take(UInt8(ascii: ".")) {
            isInteger = false
            guard peekDigit() != nil else { return nil }
            while peekDigit() != nil { index += 1 }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard peekDigit() != nil else { return nil }
            while peekDigit() != nil { index += 1 }
        }
        let digits = UnsafeBufferPointer(rebasing: bytes[start..<index])
        if isInteger, let integer = Self.integer(digits) { return .integer(integer) }
        return Double(String(decoding: digits, as: UTF8.self)).map { .number($0) }
    }

    /// `-?[0-9]+` as Int64 without an intermediate String; nil on overflow.
    private static func integer(_ digits: UnsafeBufferPointer<UInt8>) -> Int64? {
        let negative = digits.first == UInt8(ascii: "-")
        var value: Int64 = 0
        for byte in digits.dropFirst(negative ? 1 : 0) {
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = shifted.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            if overflow1 || overflow2 { return nil }
            value = next
        }
        return negative ? -value : value
    }

    private func peekDigit() -> UInt8? {
        guard index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else { return nil }
        return bytes[index] - UInt8(ascii: "0")
    }

    /// A string with every escape of RFC 8259 §7, surrogate pairs included; raw control
    /// characters and invalid UTF-8 are refused.
    mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 {
            index += 1
        }
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "\"") {
            let raw = UnsafeBufferPointer(rebasing: bytes[start..<index])
            index += 1
            // Plain ASCII (the usual case) needs no UTF-8 validation.
            return raw.allSatisfy { $0 < 0x80 } ? String(decoding: raw, as: UTF8.self) : String(validating: raw, as: UTF8.self)
        }
        var scalars = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    scalars.append(contentsOf: String(Character(scalar)).utf8)
                default: return nil
                }
            case 0..<0x20:
                return nil
            default:
                scalars.append(byte)
            }
        }
        return nil
    }

    /// After `\u`: four hex digits, or a surrogate pair of two escapes.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let high = hex4() else { return nil }
        if (0xD800..<0xDC00).contains(high) {
            guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        }
        return Unicode.Scalar(high)
    }

    private mutating func hex4() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }
}
