/// The API's password rule: 8 to 128 Unicode scalars and not a well-known password.
/// Length is counted in scalars, not `Character`s, so an emoji with modifiers counts as
/// the several code points it costs to hash, and every platform counts the same way.
/// There is no composition rule (digits, symbols): length and the blocklist are what
/// NIST SP 800-63B asks for, and composition rules mostly produce `Password1!`.
public enum PasswordRules {
    public static let code = "WEAK_PASSWORD"
    public static let minimumLength = 8
    /// Long enough for any passphrase, short enough that hashing it costs a bounded amount.
    public static let maximumLength = 128

    /// - Parameter field: the request field being checked; the password-change and reset
    ///   endpoints call it `newPassword`.
    /// - Returns: nil when the password is acceptable.
    public static func check(_ password: String, field: String = "password") -> ValidationFailure? {
        let length = password.unicodeScalars.count
        let detail: String
        if length < minimumLength {
            detail = "This password is too short; use at least \(minimumLength) characters."
        } else if length > maximumLength {
            detail = "This password is too long; use at most \(maximumLength) characters."
        } else if CommonPasswords.contains(password) {
            detail = "This password is too common and easy to guess; choose a less common one."
        } else {
            return nil
        }
        return ValidationFailure(field: field, code: code, detail: detail)
    }
}
