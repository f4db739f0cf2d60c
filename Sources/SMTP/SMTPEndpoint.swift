/// Where and how to submit mail, read from an `smtp://` or `smtps://` URL:
/// `smtp://user:password@host:port` speaks plain SMTP and upgrades with STARTTLS when the
/// server offers it; `smtps://` starts TLS at once. The user name and password are
/// percent-decoded, so a password may hold any byte (`%40` for `@`).
public struct SMTPEndpoint: Sendable, Equatable {
    public enum Security: Sendable, Equatable {
        /// Plain connection, upgraded by STARTTLS when offered (`smtp://`, default port 587).
        case startTLS
        /// TLS from the first byte (`smtps://`, default port 465).
        case implicitTLS
    }

    public let security: Security
    public let host: String
    public let port: UInt16
    public let username: String?
    public let password: String?

    /// Parses `text`; the error says which part is wrong, never echoing the password.
    public init(url text: String) throws(SMTPError) {
        let bytes = Array(text.utf8)
        let rest: ArraySlice<UInt8>
        if let after = Self.dropPrefix("smtps://", from: bytes[...]) {
            security = .implicitTLS
            rest = after
        } else if let after = Self.dropPrefix("smtp://", from: bytes[...]) {
            security = .startTLS
            rest = after
        } else {
            throw .badURL("it must start with smtp:// or smtps://")
        }
        var authority = rest
        if let slash = rest.firstIndex(of: UInt8(ascii: "/")) {
            guard slash == rest.index(before: rest.endIndex) else { throw .badURL("it may not have a path") }
            authority = rest[..<slash]
        }
        guard !authority.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") || $0 <= 0x20 || $0 == 0x7F })
        else { throw .badURL("it may not hold a query, a fragment, spaces or control characters") }

        var hostPort = authority
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
            let userinfo = authority[..<at]
            hostPort = authority[authority.index(after: at)...]
            let colon = userinfo.firstIndex(of: UInt8(ascii: ":")) ?? userinfo.endIndex
            guard let user = Self.percentDecoded(userinfo[..<colon]), !user.isEmpty else { throw .badURL("its user name is empty or badly escaped") }
            username = user
            guard colon < userinfo.endIndex, let secret = Self.percentDecoded(userinfo[userinfo.index(after: colon)...]) else {
                throw .badURL("it names a user but no password (user:password@host)")
            }
            password = secret
        } else {
            username = nil
            password = nil
        }

        let defaultPort: UInt16 = security == .implicitTLS ? 465 : 587
        if hostPort.first == UInt8(ascii: "[") {
            guard let close = hostPort.firstIndex(of: UInt8(ascii: "]")) else { throw .badURL("its IPv6 address has no closing ]") }
            host = String(decoding: hostPort[hostPort.index(after: hostPort.startIndex)..<close], as: UTF8.self)
            port = try Self.port(hostPort[hostPort.index(after: close)...], default: defaultPort)
        } else {
            let colon = hostPort.firstIndex(of: UInt8(ascii: ":")) ?? hostPort.endIndex
            host = String(decoding: hostPort[..<colon], as: UTF8.self)
            port = try Self.port(hostPort[colon...], default: defaultPort)
        }
        guard !host.isEmpty, host.utf8.count <= 253 else { throw .badURL("it names no host") }
    }

    /// Loopback: the one place where mail may travel without TLS by default.
    public var isLoopback: Bool {
        let lowered = host.lowercased()
        return lowered == "localhost" || lowered.hasSuffix(".localhost") || lowered == "::1" || lowered.hasPrefix("127.")
    }

    private static func dropPrefix(_ prefix: String, from bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let expected = Array(prefix.utf8)
        guard bytes.count >= expected.count else { return nil }
        for (offset, byte) in expected.enumerated() where asciiLowercased(bytes[bytes.startIndex + offset]) != byte { return nil }
        return bytes.dropFirst(expected.count)
    }

    /// `""` or `":587"`.
    private static func port(_ text: ArraySlice<UInt8>, default value: UInt16) throws(SMTPError) -> UInt16 {
        guard let colon = text.first else { return value }
        let digits = text.dropFirst()
        guard colon == UInt8(ascii: ":"), (1...5).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }),
              let number = Int(String(decoding: digits, as: UTF8.self)), (1...65535).contains(number)
        else { throw .badURL("its port must be a number from 1 to 65535") }
        return UInt16(number)
    }

    private static func percentDecoded(_ text: ArraySlice<UInt8>) -> String? {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == UInt8(ascii: "%") {
                guard text.distance(from: index, to: text.endIndex) >= 3,
                      let high = hexValue(text[index + 1]), let low = hexValue(text[index + 2]) else { return nil }
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(text[index])
                index += 1
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}

/// ASCII letters folded to lower case; every other byte as it is.
func asciiLowercased(_ byte: UInt8) -> UInt8 {
    (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
}
