
/// The API's email rule: trimmed, at most 254 characters, and the whole address matches
/// `[A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`. Deliberately the common
/// shape check, not RFC 5322: the verification mail is what proves an address is real.
public enum EmailRules {
    public static let field = "email"
    /// RFC 5321's limit on a forward path (256 octets) minus its angle brackets.
    public static let maximumLength = 254

    public static func normalize(_ raw: String) -> Result<ValidEmail, ValidationFailure> {
        let address = raw.trimmingWhitespace()
        if address.isEmpty {
            return .failure(ValidationFailure(field: field, rule: .emailMissing))
        }
        // Shape before length: for a long string that is not an address at all, "not a valid
        // email address" is the more useful sentence.
        guard EmailPattern.matches(address) else {
            return .failure(ValidationFailure(field: field, rule: .emailMalformed))
        }
        // The pattern admits only ASCII, so here characters and UTF-8 bytes count the same.
        guard address.utf8.count <= maximumLength else {
            return .failure(ValidationFailure(field: field, rule: .emailTooLong))
        }
        return .success(ValidEmail(address: address))
    }
}
