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

    /// `https://host[:port]...`, printable ASCII only, no spaces; the host a DNS name
    /// (letters, digits, hyphens, dot-separated labels) or a bracketed IPv6 address, and no
    /// user name or password before it.
    static func isAcceptablePhotoURL(_ url: String) -> Bool {
        let bytes = Array(url.utf8)
        guard bytes.count > 8, bytes.count <= maxPhotoURLLength, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
              bytes.prefix(8).map({ $0 | 0x20 }) == Array("https://".utf8) else { return false }
        let authority = bytes[8...].prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        return isHostAndPort(authority)
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
            return host.count > 2 && host.last == UInt8(ascii: "]") && host.dropFirst().dropLast().allSatisfy {
                (0x30...0x39).contains($0) || (0x61...0x66).contains($0 | 0x20) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".")
            }
        }
        let labels = host.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return !host.isEmpty && labels.allSatisfy { label in
            (1...63).contains(label.count) && label.allSatisfy { isDigitOrLetter($0) || $0 == UInt8(ascii: "-") }
        }
    }
}
