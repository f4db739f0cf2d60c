/// A streaming `multipart/form-data` parser (RFC 7578 over RFC 2046): bytes go in as they
/// arrive, events come out, and nothing is held beyond the current part's headers and a
/// delimiter's length of body. Every size is bounded: the boundary (70 bytes), a part's
/// header section, the number of parts.
public struct MultipartParser {
    public enum Event: Equatable {
        /// A part begins; its header fields, names as sent.
        case part([HTTPField])
        /// Bytes of the current part's body, in order.
        case data(ArraySlice<UInt8>)
        /// The current part ended.
        case partEnd
    }

    public struct Limits: Sendable {
        public var maximumParts = 16
        public var maximumHeaderBytes = 8 * 1024

        public init() {}
    }

    private enum State {
        case preamble
        case afterDelimiter
        case headers
        case body
        case epilogue
    }

    private let delimiter: [UInt8]
    private let limits: Limits
    private var state = State.preamble
    private var buffer: [UInt8] = []
    private var parts = 0

    /// The boundary of a `Content-Type: multipart/form-data; boundary=...` value, or nil
    /// when the type is another or the boundary is missing or not 1 to 70 allowed bytes.
    public static func boundary(ofContentType value: String) -> [UInt8]? {
        let pieces = Array(value.utf8).split(separator: UInt8(ascii: ";"), maxSplits: 16)
        guard let type = pieces.first, asciiCaseInsensitiveEquals(type.trimmingSpacesAndTabs(), "multipart/form-data".utf8),
              let boundary = parameter("boundary", in: pieces.dropFirst()),
              (1...70).contains(boundary.count), boundary.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), boundary.last != 0x20
        else { return nil }
        return Array(boundary)
    }

    /// The form field a part carries: the `name` parameter of its `Content-Disposition:
    /// form-data; name="file"; filename="me.jpg"`, or nil.
    public static func formFieldName(of fields: [HTTPField]) -> String? {
        guard let disposition = fields.value(of: "Content-Disposition") else { return nil }
        let pieces = Array(disposition.utf8).split(separator: UInt8(ascii: ";"), maxSplits: 16)
        guard let kind = pieces.first, asciiCaseInsensitiveEquals(kind.trimmingSpacesAndTabs(), "form-data".utf8),
              let name = parameter("name", in: pieces.dropFirst()) else { return nil }
        return String(decoding: name, as: UTF8.self)
    }

    /// The value of `name=value` or `name="value"` among `parameters`, its name compared as
    /// ASCII bytes without regard to case.
    private static func parameter(_ name: String, in parameters: ArraySlice<ArraySlice<UInt8>>) -> ArraySlice<UInt8>? {
        for parameter in parameters {
            let pair = parameter.split(separator: UInt8(ascii: "="), maxSplits: 1)
            guard pair.count == 2, asciiCaseInsensitiveEquals(pair[0].trimmingSpacesAndTabs(), name.utf8) else { continue }
            let value = pair[1].trimmingSpacesAndTabs()
            if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") { return value.dropFirst().dropLast() }
            return value
        }
        return nil
    }

    public init(boundary: [UInt8], limits: Limits = Limits()) {
        delimiter = Array("\r\n--".utf8) + boundary
        self.limits = limits
        // The first delimiter may open the body without a line break before it.
        buffer = [0x0D, 0x0A]
    }

    /// Consumes `bytes`; returns what they completed.
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(MultipartError) -> [Event] {
        buffer.append(contentsOf: bytes)
        var events: [Event] = []
        var progress = true
        while progress {
            progress = try step(&events)
        }
        return events
    }

    /// The input has ended: it must have ended with the closing delimiter.
    public func finish() throws(MultipartError) {
        guard case .epilogue = state else { throw .truncated }
    }

    /// One move of the state machine; false when it needs more bytes.
    private mutating func step(_ events: inout [Event]) throws(MultipartError) -> Bool {
        switch state {
        case .preamble:
            guard let found = find(delimiter, in: buffer) else {
                buffer.removeFirst(max(0, buffer.count - (delimiter.count - 1)))  // the preamble is ignored
                return false
            }
            buffer.removeFirst(found + delimiter.count)
            state = .afterDelimiter
            return true
        case .afterDelimiter:
            guard buffer.count >= 2 else { return false }
            if buffer[0] == UInt8(ascii: "-"), buffer[1] == UInt8(ascii: "-") {
                state = .epilogue
                buffer = []
                return false
            }
            // Transport padding (spaces, tabs) may follow a delimiter before its CRLF.
            guard let lineEnd = find([0x0D, 0x0A], in: buffer) else {
                if buffer.count > 256 { throw .malformed("a delimiter line is too long") }
                return false
            }
            guard buffer[..<lineEnd].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { throw .malformed("junk after a delimiter") }
            buffer.removeFirst(lineEnd)  // the CRLF stays: the header section is found by CRLF CRLF
            parts += 1
            guard parts <= limits.maximumParts else { throw .tooManyParts }
            state = .headers
            return true
        case .headers:
            // The buffer starts with the CRLF that ended the delimiter line; an empty
            // header section is that CRLF followed by another.
            guard let end = find(Array("\r\n\r\n".utf8), in: buffer) else {
                guard buffer.count <= limits.maximumHeaderBytes else { throw .headersTooLarge }
                return false
            }
            guard end <= limits.maximumHeaderBytes else { throw .headersTooLarge }
            events.append(.part(try Self.fields(in: end < 2 ? [] : Array(buffer[2..<end]))))
            buffer.removeFirst(end + 4)
            state = .body
            return true
        case .body:
            if let found = find(delimiter, in: buffer) {
                if found > 0 { events.append(.data(buffer[..<found])) }
                events.append(.partEnd)
                buffer.removeFirst(found + delimiter.count)
                state = .afterDelimiter
                return true
            }
            // Everything but what could be the start of a delimiter is body.
            let safe = buffer.count - (delimiter.count - 1)
            if safe > 0 {
                events.append(.data(buffer[..<safe]))
                buffer.removeFirst(safe)
            }
            return false
        case .epilogue:
            buffer = []
            return false
        }
    }

    private static func fields(in section: [UInt8]) throws(MultipartError) -> [HTTPField] {
        var fields: [HTTPField] = []
        guard !section.isEmpty else { return fields }
        for line in section.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let text = line.last == 0x0D ? line.dropLast() : line
            guard let colon = text.firstIndex(of: UInt8(ascii: ":")), colon > text.startIndex,
                  text[..<colon].allSatisfy(ASCII.isTokenCharacter),
                  !text.contains(where: { $0 == 0 || $0 == 0x0D })
            else { throw .malformed("a part header is not `Name: value`") }
            let name = String(decoding: text[..<colon], as: UTF8.self)
            let value = String(decoding: text[(colon + 1)...].trimmingSpacesAndTabs(), as: UTF8.self)
            fields.append(HTTPField(name: name, value: value))
        }
        return fields
    }

    private func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}

public enum MultipartError: Error, Equatable, Sendable {
    case malformed(String)
    case tooManyParts
    case headersTooLarge
    /// The body ended before the closing delimiter.
    case truncated
}
