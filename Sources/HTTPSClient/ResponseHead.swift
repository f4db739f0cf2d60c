/// A response's status line and header fields (RFC 9112 §4 and §5), parsed from bytes:
/// `HTTP/1.x NNN reason`, then `name: value` lines; no obsolete line folding, no bytes
/// outside visible ASCII, tab and space in a value.
struct ResponseHead {
    let status: Int
    let headers: [(name: String, value: String)]

    static let maximumFields = 100

    init(_ bytes: ArraySlice<UInt8>) throws(HTTPSError) {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line in
            line.last == UInt8(ascii: "\r") ? line.dropLast() : line
        }
        guard !lines.isEmpty else { throw .malformedResponse("no status line") }
        let statusLine = lines.removeFirst()
        let version = Array("HTTP/1.".utf8)
        guard statusLine.count >= 12, Array(statusLine.prefix(version.count)) == version,
              [UInt8(ascii: "0"), UInt8(ascii: "1")].contains(statusLine[statusLine.startIndex + 7]),
              statusLine[statusLine.startIndex + 8] == UInt8(ascii: " "),
              statusLine[(statusLine.startIndex + 9)..<(statusLine.startIndex + 12)].allSatisfy({ (0x30...0x39).contains($0) }),
              statusLine.count == 12 || statusLine[statusLine.startIndex + 12] == UInt8(ascii: " ")
        else { throw .malformedResponse("a status line that is not HTTP/1.x NNN") }
        status = Int(String(decoding: statusLine[(statusLine.startIndex + 9)..<(statusLine.startIndex + 12)], as: UTF8.self))!
        guard lines.count <= Self.maximumFields else { throw .tooLarge("more than \(Self.maximumFields) header fields") }
        var headers: [(name: String, value: String)] = []
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                  line[..<colon].allSatisfy(Self.isTokenByte),
                  line[(colon + 1)...].allSatisfy({ $0 == 0x09 || (0x20...0x7E).contains($0) || $0 >= 0x80 })
            else { throw .malformedResponse("a header line that is not name: value") }
            let value = line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
            let trimmed = value.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
            headers.append((String(decoding: line[..<colon], as: UTF8.self), String(decoding: trimmed, as: UTF8.self)))
        }
        self.headers = headers
    }

    /// Every value of the fields named `name`.
    func values(_ name: String) -> [String] {
        headers.filter { Self.namesEqual($0.name, name) }.map(\.value)
    }

    /// Header names compared as ASCII bytes, case folded, never as Swift `String`s.
    static func namesEqual(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { lowercased($0) == lowercased($1) }
    }

    static func lowercased(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }

    /// RFC 9110's tchar.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): true
        default: false
        }
    }
}
