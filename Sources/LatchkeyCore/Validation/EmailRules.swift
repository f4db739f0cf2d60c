
/// The API's email rule: trimmed, at most 254 characters, and the whole address matches
/// `[A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`. Deliberately the common
/// shape check, not RFC 5322: the verification mail is what proves an address is real.
public enum EmailRules {
    public static let field = "email"
    public static let code = "INVALID_EMAIL"
    /// RFC 5321's limit on a forward path (256 octets) minus its angle brackets.
    public static let maximumLength = 254

    public static func normalize(_ raw: String) -> Result<ValidEmail, ValidationFailure> {
        let address = raw.trimmingWhitespace()
        if address.isEmpty {
            return .failure(failure("Enter an email address."))
        }
        // Shape before length: for a long string that is not an address at all, "not a valid
        // email address" is the more useful sentence.
        guard EmailPattern.matches(address) else {
            return .failure(failure("This is not a valid email address; it should look like name@example.com."))
        }
        // The pattern admits only ASCII, so here characters and UTF-8 bytes count the same.
        guard address.utf8.count <= maximumLength else {
            return .failure(failure("This email address is too long; it can have at most \(maximumLength) characters."))
        }
        return .success(ValidEmail(address: address))
    }

    private static func failure(_ detail: String) -> ValidationFailure {
        ValidationFailure(field: field, code: code, detail: detail)
    }
}
