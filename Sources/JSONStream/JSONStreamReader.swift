/// A pull reader of JSON (RFC 8259) that never holds more than one piece of its input:
/// the caller walks the document (`beginObject`, `nextKey`, `beginArray`, `nextElement`),
/// reads the values it wants (`readScalar`) and skips the rest (`skipValue`) without
/// building them. Memory is the buffer, one string or number at a time and the open
/// containers, whatever the input's size: what an export of a hundred thousand accounts
/// needs, where `JSONSerialization` would hold all of it, several times over.
///
/// Every bound is explicit: nesting deeper than `maximumDepth`, a string longer than
/// `maximumStringBytes` (decoded) and a number longer than `maximumNumberBytes` are errors,
/// each naming its line and column. Strings that are read are checked to be UTF-8;
/// skipped ones are only checked for their escapes and control characters.
///
/// After an error the reader's position is unspecified: stop reading.
///
/// Not generic over its source: the source is asked for bytes once per buffer, and a
/// generic reader ran unspecialized from the modules that use it, looking up its own type
/// metadata at every call.
public final class JSONStreamReader {
    public static var maximumDepth: Int { 64 }
    public static var maximumNumberBytes: Int { 128 }

    public let maximumStringBytes: Int
    /// Where the next byte to read is; after `peekKind`, the start of the next value.
    public private(set) var location = JSONLocation(line: 1, column: 1, offset: 0)

    private var source: any JSONByteSource
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private var position = 0
    private var filled = 0
    private var exhausted = false
    /// The open objects and arrays, innermost last.
    private var containers: [Container] = []
    /// The bytes of the string or number being read, reused.
    private var scratch: [UInt8] = []

    private struct Container {
        let isObject: Bool
        var hasMembers = false
    }

    public init(_ source: some JSONByteSource, chunkSize: Int = 65_536, maximumStringBytes: Int = 1 << 20) {
        self.source = source
        self.maximumStringBytes = maximumStringBytes
        buffer = .allocate(capacity: max(1, chunkSize))
    }

    deinit { buffer.deallocate() }

    /// An error at the current location, for a caller whose expectation the input missed.
    public func error(_ message: String) -> JSONStreamError {
        JSONStreamError(message, at: location)
    }

    // MARK: Walking

    /// The kind of the next value; whitespace before it is passed over.
    public func peekKind() throws -> JSONKind {
        try skipWhitespace()
        guard let byte = try peekByte() else { throw error("expected a value, found the end of the input") }
        switch byte {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: throw error("expected a value, found \(describe(byte))")
        }
    }

    /// Enters the object that comes next; then `nextKey` until it answers nil.
    public func beginObject() throws {
        let kind = try peekKind()
        guard kind == .object else { throw error("expected an object, found \(kind)") }
        try open(isObject: true)
    }

    /// The next member's key, with the reader at its value (which the caller must read or
    /// skip); nil once the object closed.
    public func nextKey() throws -> String? {
        guard try moveToNextMember(ofObject: true) else { return nil }
        let key = try readString()
        try take(UInt8(ascii: ":"), "':' after a key")
        return key
    }

    /// Enters the array that comes next; then `nextElement` until it answers false.
    public func beginArray() throws {
        let kind = try peekKind()
        guard kind == .array else { throw error("expected an array, found \(kind)") }
        try open(isObject: false)
    }

    /// True with the reader at the next element (which the caller must read or skip);
    /// false once the array closed.
    public func nextElement() throws -> Bool {
        try moveToNextMember(ofObject: false)
    }

    /// The next value, which must not be an object or an array.
    public func readScalar() throws -> JSONScalar {
        switch try peekKind() {
        case .string: return .string(try readString())
        case .number: return .number(try readNumber())
        case .bool:
            let isTrue = try peekByte() == UInt8(ascii: "t")
            try readLiteral(isTrue ? "true" : "false")
            return .bool(isTrue)
        case .null:
            try readLiteral("null")
            return .null
        case let kind: throw error("expected a string, number, true, false or null, found \(kind)")
        }
    }

    /// Passes over the next value, containers and all, keeping nothing of it.
    public func skipValue() throws {
        let depth = containers.count
        // Each pass reads one value or opens one container: bounded by the input's length.
        repeat {
            switch try peekKind() {
            case .object: try open(isObject: true)
            case .array: try open(isObject: false)
            case .string: try skipString()
            case .number: _ = try readNumber()
            case .bool, .null: _ = try readScalar()
            }
            // Close whatever ended, until the reader is at a value again or back out.
            while containers.count > depth {
                if containers[containers.count - 1].isObject {
                    guard try moveToNextMember(ofObject: true) else { continue }
                    try skipString()
                    try take(UInt8(ascii: ":"), "':' after a key")
                    break
                }
                if try moveToNextMember(ofObject: false) { break }
            }
        } while containers.count > depth
    }

    /// Checks that nothing but whitespace follows the top-level value.
    public func finish() throws {
        precondition(containers.isEmpty, "finish() inside an open object or array")
        try skipWhitespace()
        if let byte = try peekByte() { throw error("expected the end of the input, found \(describe(byte))") }
    }

    // MARK: Containers

    private func open(isObject: Bool) throws {
        guard containers.count < Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth) levels") }
        advance()
        containers.append(Container(isObject: isObject))
    }

    /// After the previous member (or the opening bracket): true at the next member,
    /// false once the closing bracket is passed.
    private func moveToNextMember(ofObject isObject: Bool) throws -> Bool {
        guard let top = containers.last, top.isObject == isObject else {
            preconditionFailure(isObject ? "nextKey() outside an object" : "nextElement() outside an array")
        }
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        try skipWhitespace()
        let byte = try peekByte()
        if byte == close {
            advance()
            containers.removeLast()
            return false
        }
        if top.hasMembers {
            guard byte == UInt8(ascii: ",") else {
                throw error("expected ',' or '\(Character(Unicode.Scalar(close)))', found \(byte.map(describe) ?? "the end of the input")")
            }
            advance()
            try skipWhitespace()
        }
        let next = try peekByte()
        if isObject, next != UInt8(ascii: "\"") {
            throw error("expected a key (a string), found \(next.map(describe) ?? "the end of the input")")
        }
        if !isObject, top.hasMembers, next == close { throw error("expected a value after ',', found ']'") }
        containers[containers.count - 1].hasMembers = true
        return true
    }

    // MARK: Scalars

    private func readLiteral(_ word: StaticString) throws {
        let start = location
        for offset in 0..<word.utf8CodeUnitCount {
            guard try peekByte() == word.utf8Start[offset] else {
                throw JSONStreamError("expected \(word), found something else", at: start)
            }
            advance()
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as written.
    private func readNumber() throws -> String {
        let start = location
        scratch.removeAll(keepingCapacity: true)
        func keep(_ byte: UInt8) throws {
            guard scratch.count < Self.maximumNumberBytes else {
                throw JSONStreamError("a number longer than \(Self.maximumNumberBytes) characters", at: start)
            }
            scratch.append(byte)
            advance()
        }
        func digits(atLeastOne: Bool) throws {
            var count = 0
            while let byte = try peekByte(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                try keep(byte)
                count += 1
            }
            if atLeastOne, count == 0 { throw error("expected a digit in a number") }
        }
        if try peekByte() == UInt8(ascii: "-") { try keep(UInt8(ascii: "-")) }
        if try peekByte() == UInt8(ascii: "0") {
            try keep(UInt8(ascii: "0"))
        } else {
            try digits(atLeastOne: true)
        }
        if try peekByte() == UInt8(ascii: ".") {
            try keep(UInt8(ascii: "."))
            try digits(atLeastOne: true)
        }
        if let byte = try peekByte(), byte | 0x20 == UInt8(ascii: "e") {
            try keep(byte)
            if let sign = try peekByte(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { try keep(sign) }
            try digits(atLeastOne: true)
        }
        return String(decoding: scratch, as: UTF8.self)
    }

    private func readString() throws -> String {
        let start = location
        scratch.removeAll(keepingCapacity: true)
        try scanString { bytes in
            guard bytes.count <= maximumStringBytes - scratch.count else {
                throw JSONStreamError("a string longer than \(maximumStringBytes) bytes", at: start)
            }
            scratch.append(contentsOf: bytes)
        }
        guard let text = String(validating: scratch, as: UTF8.self) else { throw JSONStreamError("a string that is not UTF-8", at: start) }
        return text
    }

    private func skipString() throws {
        try scanString { _ in }
    }

    /// Reads a string literal, handing its decoded UTF-8 to `keep` a run at a time.
    private func scanString(_ keep: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let start = location
        advance()  // the opening quote, which peekKind or moveToNextMember saw
        // A run of plain bytes, or one byte or escape, per pass: bounded by the input's length.
        while true {
            if try takePlainRun(keep) { continue }
            // Errors point at the offending byte or escape, not past it.
            let here = location
            guard let byte = try nextByte() else { throw JSONStreamError("a string that does not end", at: start) }
            switch byte {
            case UInt8(ascii: "\""):
                return
            case UInt8(ascii: "\\"):
                guard let escape = try nextByte() else { throw JSONStreamError("a string that does not end", at: start) }
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): try keepByte(escape, keep)
                case UInt8(ascii: "b"): try keepByte(0x08, keep)
                case UInt8(ascii: "f"): try keepByte(0x0C, keep)
                case UInt8(ascii: "n"): try keepByte(0x0A, keep)
                case UInt8(ascii: "r"): try keepByte(0x0D, keep)
                case UInt8(ascii: "t"): try keepByte(0x09, keep)
                case UInt8(ascii: "u"):
                    var encoded = String(Character(try unicodeEscape(at: here)))
                    try encoded.withUTF8 { try keep($0) }
                default:
                    let shown = (0x21..<0x7F).contains(escape) ? "'\\\(Character(Unicode.Scalar(escape)))'" : "\\ and \(describe(escape))"
                    throw JSONStreamError("an unknown escape \(shown) in a string", at: here)
                }
            case 0..<0x20:
                throw JSONStreamError("a control character (\(describe(byte))) inside a string; it must be escaped", at: here)
            default:
                try keepByte(byte, keep)
            }
        }
    }

    /// Hands `keep` the bytes already buffered from here up to the next quote, backslash or
    /// control character, and moves past them; false when there are none (one of those is
    /// next, or the input has ended). Most of a string goes this way, not byte by byte.
    private func takePlainRun(_ keep: (UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Bool {
        guard try peekByte() != nil else { return false }
        let (buffer, begin, filled) = (buffer, position, filled)
        var end = begin
        while end < filled, buffer[end] >= 0x20, buffer[end] != UInt8(ascii: "\""), buffer[end] != UInt8(ascii: "\\") {
            end += 1
        }
        guard end > begin else { return false }
        try keep(UnsafeBufferPointer(rebasing: buffer[begin..<end]))
        position = end
        // A run holds no line feed (control characters end it): only the column moves.
        location.offset += end - begin
        location.column += end - begin
        return true
    }

    private func keepByte(_ byte: UInt8, _ keep: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        try withUnsafePointer(to: byte) { try keep(UnsafeBufferPointer(start: $0, count: 1)) }
    }

    /// After `\u`: four hex digits, or a surrogate pair written as two escapes. Errors
    /// point at the escape's backslash, `start`.
    private func unicodeEscape(at start: JSONLocation) throws -> Unicode.Scalar {
        let high = try hex4(at: start)
        if (0xDC00..<0xE000).contains(high) { throw JSONStreamError("a lone low surrogate in a \\u escape", at: start) }
        guard (0xD800..<0xDC00).contains(high) else { return Unicode.Scalar(high)! }
        guard try nextByte() == UInt8(ascii: "\\"), try nextByte() == UInt8(ascii: "u") else {
            throw JSONStreamError("a high surrogate not followed by a \\u escape of its low half", at: start)
        }
        let low = try hex4(at: start)
        guard (0xDC00..<0xE000).contains(low) else {
            throw JSONStreamError("a high surrogate followed by something other than a low one", at: start)
        }
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
    }

    private func hex4(at start: JSONLocation) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            let digit: UInt32
            switch try nextByte() {
            case let byte? where (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte): digit = UInt32(byte - UInt8(ascii: "0"))
            case let byte? where (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case let byte? where (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw JSONStreamError("a \\u escape needs four hex digits", at: start)
            }
            value = value * 16 + digit
        }
        return value
    }

    // MARK: Bytes

    private func take(_ expected: UInt8, _ what: String) throws {
        try skipWhitespace()
        let byte = try peekByte()
        guard byte == expected else { throw error("expected \(what), found \(byte.map(describe) ?? "the end of the input")") }
        advance()
    }

    private func skipWhitespace() throws {
        while let byte = try peekByte(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            advance()
        }
    }

    /// The next byte without taking it; nil at the end of the input.
    @inline(__always)
    private func peekByte() throws -> UInt8? {
        if position == filled {
            guard !exhausted else { return nil }
            filled = try source.read(into: buffer)
            position = 0
            guard filled > 0 else {
                exhausted = true
                return nil
            }
        }
        return buffer[position]
    }

    /// Takes the byte `peekByte` returned.
    @inline(__always)
    private func advance() {
        let byte = buffer[position]
        position += 1
        location.offset += 1
        if byte == 0x0A {
            location.line += 1
            location.column = 1
        } else {
            location.column += 1
        }
    }

    private func nextByte() throws -> UInt8? {
        guard let byte = try peekByte() else { return nil }
        advance()
        return byte
    }
}

/// A byte as a message shows it: `'x'`, or its hex value when it does not print.
private func describe(_ byte: UInt8) -> String {
    guard !(0x21..<0x7F).contains(byte) else { return "'\(Character(Unicode.Scalar(byte)))'" }
    let hex = String(byte, radix: 16, uppercase: true)
    return "byte 0x" + (hex.count == 1 ? "0" : "") + hex
}
