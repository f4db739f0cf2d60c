/// The API's password rule, on the password's NFKC form (`PasswordNormalization`):
/// 8 to 128 Unicode scalars, not a well-known password, and neither repetitive nor
/// sequential (NIST SP 800-63B 5.1.1.2). Length is counted in scalars, not `Character`s,
/// so an emoji with modifiers counts as the several code points it costs to hash, and
/// every platform counts the same way. There is no composition rule (digits, symbols):
/// composition rules mostly produce `Password1!`.
public enum PasswordRules {
    public static let minimumLength = 8
    /// Long enough for any passphrase, short enough that hashing it costs a bounded amount.
    public static let maximumLength = 128

    /// - Parameter field: the request field being checked; the password-change and reset
    ///   endpoints call it `newPassword`.
    /// - Returns: nil when the password is acceptable.
    public static func check(_ password: String, field: String = "password") -> ValidationFailure? {
        let normalized = PasswordNormalization.nfkc(password)
        let length = normalized.unicodeScalars.count
        let rule: ValidationRule
        if length < minimumLength {
            rule = .passwordTooShort
        } else if length > maximumLength {
            rule = .passwordTooLong
        } else if CommonPasswords.contains(normalized) {
            rule = .passwordCommon
        } else if let pattern = PasswordPatterns.weakness(of: normalized) {
            rule = pattern
        } else {
            return nil
        }
        return ValidationFailure(field: field, rule: rule)
    }
}
