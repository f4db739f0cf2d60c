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

    /// `https://host...`, printable ASCII only, no spaces.
    static func isAcceptablePhotoURL(_ url: String) -> Bool {
        guard url.utf8.count <= maxPhotoURLLength, url.lowercased().hasPrefix("https://"), url.utf8.count > 8 else { return false }
        let host = url.dropFirst(8).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return !host.isEmpty && url.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}
