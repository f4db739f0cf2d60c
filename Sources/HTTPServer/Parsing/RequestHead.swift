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
        for field in fields where field.name.utf8.count == name.utf8.count && asciiCaseInsensitiveEquals(field.name, name) {
            return field.value
        }
        return nil
    }

    /// Every value of a field, in arrival order.
    public func fieldValues(_ name: String) -> [String] {
        fields.filter { asciiCaseInsensitiveEquals($0.name, name) }.map(\.value)
    }

    /// Keep-alive is the default for HTTP/1.1 and opt-in for HTTP/1.0 (RFC 9112 §9.3).
    public var wantsKeepAlive: Bool {
        let tokens = fieldValues("connection").flatMap(commaSeparatedTokens)
        if tokens.contains("close") { return false }
        if version == .http1_0 { return tokens.contains("keep-alive") }
        return true
    }
}

func asciiCaseInsensitiveEquals(_ a: String, _ b: String) -> Bool {
    var ia = a.utf8.makeIterator()
    var ib = b.utf8.makeIterator()
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

/// Splits a list-valued field (`a, b ,c`) into lower-cased tokens, empty members dropped.
func commaSeparatedTokens(_ value: String) -> [String] {
    value.split(separator: ",").compactMap { member in
        let token = member.trimmingSpacesAndTabs().lowercased()
        return token.isEmpty ? nil : token
    }
}

extension Substring {
    func trimmingSpacesAndTabs() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}
