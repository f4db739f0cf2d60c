/// The fields of a signup, validated all at once so the client can show every problem.
public struct SignupForm: Sendable {
    public let email: String
    public let password: String
    public let displayName: String
    public let confirmPassword: String?

    public init(email: String, password: String, displayName: String, confirmPassword: String?) {
        self.email = email
        self.password = password
        self.displayName = displayName
        self.confirmPassword = confirmPassword
    }

    /// Format problems (400, all listed) come before a reserved name (409).
    func validated(reserved: ReservedDisplayNames) throws(AccountError) -> (email: ValidEmail, displayName: String) {
        var failures: [ValidationFailure] = []
        var email: ValidEmail?
        switch EmailRules.normalize(self.email) {
        case .success(let valid): email = valid
        case .failure(let failure): failures.append(failure)
        }
        if let weak = PasswordRules.check(password) { failures.append(weak) }
        if let confirmPassword, confirmPassword != password {
            failures.append(ValidationFailure(field: "confirmPassword", rule: .passwordsDoNotMatch))
        }
        if let invalid = DisplayNameRules.check(displayName).failure { failures.append(invalid) }
        if let errors = ValidationErrors(collecting: failures) { throw .invalid(errors) }
        if reserved.contains(displayName) { throw .displayNameTaken(reserved: true) }
        return (email!, displayName)
    }
}

/// A PATCH of the caller's profile: absent fields stay as they are.
public struct ProfileChange: Sendable {
    public enum PhotoURL: Sendable, Equatable {
        case unchanged
        /// A new URL, or nil to remove the picture.
        case set(String?)
    }

    public let displayName: String?
    public let photoURL: PhotoURL

    public static let maxPhotoURLLength = 2048

    public init(displayName: String?, photoURL: PhotoURL) {
        self.displayName = displayName
        self.photoURL = photoURL
    }

    func validate(reserved: ReservedDisplayNames) throws(AccountError) {
        var failures: [ValidationFailure] = []
        if let displayName, let invalid = DisplayNameRules.check(displayName).failure { failures.append(invalid) }
        if case .set(let url?) = photoURL, !Self.isAcceptablePhotoURL(url) {
            failures.append(ValidationFailure(field: "photoURL", rule: .photoURL))
        }
        if let errors = ValidationErrors(collecting: failures) { throw .invalid(errors) }
        if let displayName, reserved.contains(displayName) { throw .displayNameTaken(reserved: true) }
    }

    /// `https://host[:port]...`, an RFC 3986 URI: the host a DNS name (letters, digits,
    /// hyphens, dot-separated labels) or a bracketed IPv6 address, no user name or password
    /// before it, and after it only the characters RFC 3986 allows in a path, query and
    /// fragment (percent-encoding complete, one `#`).
    static func isAcceptablePhotoURL(_ url: String) -> Bool {
        let bytes = Array(url.utf8)
        guard bytes.count > 8, bytes.count <= maxPhotoURLLength, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
              bytes.prefix(8).map({ $0 | 0x20 }) == Array("https://".utf8) else { return false }
        let authority = bytes[8...].prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        return isHostAndPort(authority) && isPathQueryAndFragment(bytes[authority.endIndex...])
    }

    private static func isHostAndPort(_ authority: ArraySlice<UInt8>) -> Bool {
        var host = authority
        if let colon = authority.lastIndex(of: UInt8(ascii: ":")),
           authority.first != UInt8(ascii: "[") || authority[..<colon].last == UInt8(ascii: "]") {
            let port = authority[(colon + 1)...]
            guard (1...5).contains(port.count), port.allSatisfy({ (0x30...0x39).contains($0) }) else { return false }
            host = authority[..<colon]
        }
        func isDigitOrLetter(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte | 0x20) }
        if host.first == UInt8(ascii: "[") {
            return host.count > 2 && host.last == UInt8(ascii: "]") && isIPv6Address(host.dropFirst().dropLast())
        }
        let labels = host.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return !host.isEmpty && labels.allSatisfy { label in
            (1...63).contains(label.count) && label.allSatisfy { isDigitOrLetter($0) || $0 == UInt8(ascii: "-") }
        }
    }

    /// RFC 3986's `IPv6address`: eight groups of one to four hex digits, `::` at most once
    /// standing for one or more of them, the last two optionally a dotted IPv4 address.
    static func isIPv6Address(_ text: ArraySlice<UInt8>) -> Bool {
        let colon = UInt8(ascii: ":")
        /// The 16-bit groups `part` spells, or nil when it is not `h16 *(":" h16)`; an IPv4
        /// address counts two and may only end the address.
        func groups(_ part: ArraySlice<UInt8>, endsAddress: Bool) -> Int? {
            guard !part.isEmpty else { return 0 }
            let pieces = part.split(separator: colon, omittingEmptySubsequences: false)
            var count = 0
            for (index, piece) in pieces.enumerated() {
                if endsAddress, index == pieces.count - 1, piece.contains(UInt8(ascii: ".")) {
                    guard isIPv4Address(piece) else { return nil }
                    count += 2
                } else {
                    guard (1...4).contains(piece.count), piece.allSatisfy(isHexDigit) else { return nil }
                    count += 1
                }
            }
            return count
        }
        var index = text.startIndex
        while index < text.endIndex - 1, !(text[index] == colon && text[index + 1] == colon) { index += 1 }
        guard index < text.endIndex - 1 else { return groups(text, endsAddress: true) == 8 }
        guard let head = groups(text[..<index], endsAddress: false), let tail = groups(text[(index + 2)...], endsAddress: true) else { return false }
        return head + tail <= 7
    }

    /// Four decimal octets, 0 to 255 without leading zeros, joined by dots.
    private static func isIPv4Address(_ text: ArraySlice<UInt8>) -> Bool {
        let octets = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return octets.count == 4 && octets.allSatisfy { octet in
            (1...3).contains(octet.count) && octet.allSatisfy { (0x30...0x39).contains($0) }
                && (octet.count == 1 || octet.first != UInt8(ascii: "0"))
                && octet.reduce(0) { $0 * 10 + Int($1 - 0x30) } <= 255
        }
    }

    /// What follows the authority: RFC 3986's `pchar`s, `/` and `?`, `%` with two hex
    /// digits, and at most one `#`, which starts the fragment.
    private static func isPathQueryAndFragment(_ rest: ArraySlice<UInt8>) -> Bool {
        var fragment = false
        var index = rest.startIndex
        while index < rest.endIndex {
            let byte = rest[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < rest.endIndex, isHexDigit(rest[index + 1]), isHexDigit(rest[index + 2]) else { return false }
                index += 3
                continue
            }
            if byte == UInt8(ascii: "#") {
                guard !fragment else { return false }
                fragment = true
            } else if !((0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte | 0x20) || "-._~!$&'()*+,;=:@/?".utf8.contains(byte)) {
                return false
            }
            index += 1
        }
        return true
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte | 0x20)
    }
}
