/// One header field as it arrived, name spelling kept; lookups ignore case.
public struct HTTPField: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

public struct HTTPVersion: Sendable, Equatable, CustomStringConvertible {
    public var major: Int
    public var minor: Int

    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    public var description: String { "HTTP/\(major).\(minor)" }
}

/// The request line and header section of one request, validated by `HeadParser`.
public struct RequestHead: Sendable, Equatable {
    public var method: String
    public var target: String
    public var version: HTTPVersion
    public var fields: [HTTPField]

    public init(method: String, target: String, version: HTTPVersion, fields: [HTTPField]) {
        self.method = method
        self.target = target
        self.version = version
        self.fields = fields
    }

    /// The first value of a field, compared without regard to case.
    public func field(_ name: String) -> String? {
        fields.value(of: name)
    }

    /// Every value of a field, in arrival order. One pass, and an array only once a field
    /// matches (a filter and a map allocated twice per name).
    public func fieldValues(_ name: String) -> [String] {
        var values: [String] = []
        for field in fields where asciiCaseInsensitiveEquals(field.name, name) {
            values.append(field.value)
        }
        return values
    }

    /// Whether `Content-Type` names `mediaType` (parameters such as `charset` aside),
    /// compared ASCII-case-insensitively on the bytes.
    public func hasMediaType(_ mediaType: String) -> Bool {
        guard var value = field("content-type") else { return false }
        // On the value's own bytes: every JSON request asks, and copying them into an array
        // to split it cost 1.5% of a refresh.
        return value.withUTF8 { bytes in
            let type = bytes[..<(bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex)]
            return asciiCaseInsensitiveEquals(type.trimmingSpacesAndTabs(), mediaType.utf8)
        }
    }

    /// Keep-alive is the default for HTTP/1.1 and opt-in for HTTP/1.0 (RFC 9112 §9.3).
    public var wantsKeepAlive: Bool {
        let options = fieldValues("connection")
        if listContains(options, "close") { return false }
        if version == .http1_0 { return listContains(options, "keep-alive") }
        return true
    }
}

extension [HTTPField] {
    /// The first value of the field `name`, its name compared as ASCII bytes without regard
    /// to case: request heads and multipart part headers alike.
    public func value(of name: String) -> String? {
        for field in self where field.name.utf8.count == name.utf8.count && asciiCaseInsensitiveEquals(field.name, name) {
            return field.value
        }
        return nil
    }
}

/// Compares the bytes, folding ASCII letters only: protocol tokens are ASCII, and a Swift
/// `String` comparison (canonical equivalence) or `lowercased()` (Unicode case mapping)
/// would take `chun\u{212A}ed`, with a KELVIN SIGN, for `chunked`.
func asciiCaseInsensitiveEquals(_ a: String, _ b: String) -> Bool {
    // Most header names a lookup passes over differ in length: no byte need be read.
    guard a.utf8.count == b.utf8.count else { return false }
    // On the contiguous bytes: a generic walk of two `UTF8View`s cost more than the rest of
    // a header lookup (every authenticated request looks up `Authorization`).
    var (a, b) = (a, b)
    return a.withUTF8 { a in b.withUTF8 { b in asciiCaseInsensitiveEquals(a, b) } }
}

func asciiCaseInsensitiveEquals<A: Sequence<UInt8>, B: Sequence<UInt8>>(_ a: A, _ b: B) -> Bool {
    var ia = a.makeIterator()
    var ib = b.makeIterator()
    while true {
        switch (ia.next(), ib.next()) {
        case (nil, nil): return true
        case let (x?, y?):
            if x == y { continue }
            if x | 0x20 != y | 0x20 || !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains(x | 0x20) { return false }
        default: return false
        }
    }
}

/// The members of list-valued fields (`a, b ,c`, RFC 9110 §5.6.1) as their bytes, split
/// on the comma byte with spaces and tabs trimmed and empty members dropped. Split as
/// bytes: a Swift `Character` can hold a comma with a combining mark after it.
public func listMembers(_ values: [String]) -> [ArraySlice<UInt8>] {
    var members: [ArraySlice<UInt8>] = []
    for value in values {
        for member in Array(value.utf8).split(separator: UInt8(ascii: ",")) {
            let trimmed = member.trimmingSpacesAndTabs()
            if !trimmed.isEmpty { members.append(trimmed) }
        }
    }
    return members
}

/// Whether a list-valued field names `token` (ASCII case-insensitively, on the bytes).
func listContains(_ values: [String], _ token: String) -> Bool {
    listMembers(values).contains { asciiCaseInsensitiveEquals($0, token.utf8) }
}

extension BidirectionalCollection where Element == UInt8, SubSequence == Self {
    func trimmingSpacesAndTabs() -> Self {
        var result = self
        while let first = result.first, first == ASCII.space || first == ASCII.tab { result.removeFirst() }
        while let last = result.last, last == ASCII.space || last == ASCII.tab { result.removeLast() }
        return result
    }
}
