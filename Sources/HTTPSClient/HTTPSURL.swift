/// An `https://host[:port]/path?query` URL, checked before anything is sent: nothing but
/// https, no user information, a host of letters, digits, `-`, `.` (or an IP address), at
/// most 2048 bytes. The fragment is dropped; it is never sent.
struct HTTPSURL: Equatable {
    let host: String
    let port: UInt16
    /// The request target: path and query, `/` when the URL has none.
    let target: String

    static let maximumLength = 2048

    init(_ text: String) throws(HTTPSError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maximumLength else { throw .badURL("longer than \(Self.maximumLength) bytes") }
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw .badURL("spaces, control or non-ASCII characters") }
        let scheme = Array("https://".utf8)
        guard bytes.count > scheme.count, bytes[..<scheme.count].map(Self.lowercased) == scheme else { throw .badURL("not https") }
        let rest = bytes[scheme.count...].prefix { $0 != UInt8(ascii: "#") }
        let authorityEnd = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.contains(UInt8(ascii: "@")) else { throw .badURL("user information in the URL") }
        var hostBytes = authority[...]
        var port: UInt16 = 443
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { throw .badURL("an unclosed IPv6 address") }
            hostBytes = authority[(authority.startIndex + 1)..<close]
            port = try Self.port(authority[(close + 1)...], allowEmpty: true)
            guard hostBytes.allSatisfy({ Self.isHex($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else { throw .badURL("a malformed IPv6 address") }
        } else {
            if let colon = authority.firstIndex(of: UInt8(ascii: ":")) {
                hostBytes = authority[..<colon]
                port = try Self.port(authority[colon...], allowEmpty: false)
            }
            guard hostBytes.allSatisfy({ Self.isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }) else {
                throw .badURL("a host name with characters outside letters, digits, '-' and '.'")
            }
        }
        guard !hostBytes.isEmpty, hostBytes.count <= 253 else { throw .badURL("no host, or one longer than 253 bytes") }
        host = String(decoding: hostBytes, as: UTF8.self)
        self.port = port
        let target = rest[authorityEnd...]
        self.target = target.first == UInt8(ascii: "?") ? "/" + String(decoding: target, as: UTF8.self)
            : target.isEmpty ? "/" : String(decoding: target, as: UTF8.self)
    }

    /// The `Host` header: the port only when it is not 443.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == 443 ? name : "\(name):\(port)"
    }

    /// `:digits` (or nothing, where allowed) as a port from 1 to 65535.
    private static func port(_ bytes: ArraySlice<UInt8>, allowEmpty: Bool) throws(HTTPSError) -> UInt16 {
        if bytes.isEmpty, allowEmpty { return 443 }
        let digits = bytes.dropFirst()
        guard bytes.first == UInt8(ascii: ":"), (1...5).contains(digits.count), digits.allSatisfy(isDigit),
              let value = Int(String(decoding: digits, as: UTF8.self)), (1...65535).contains(value)
        else { throw .badURL("a port that is not a number from 1 to 65535") }
        return UInt16(value)
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isHex(_ byte: UInt8) -> Bool { isDigit(byte) || (0x61...0x66).contains(lowercased(byte)) }
    private static func isAlphanumeric(_ byte: UInt8) -> Bool { isDigit(byte) || (0x61...0x7A).contains(lowercased(byte)) }
}
