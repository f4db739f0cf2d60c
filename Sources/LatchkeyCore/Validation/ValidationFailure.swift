/// One input that broke a rule: the request field as the client spelled it and which rule
/// it broke. The wording, the stable code and the status are the API's to choose, in its
/// one error mapping; the domain only says what went wrong.
public struct ValidationFailure: Error, Sendable, Equatable {
    /// `email`, `password`, `newPassword`, `displayName`, ...
    public let field: String
    public let rule: ValidationRule

    public init(field: String, rule: ValidationRule) {
        self.field = field
        self.rule = rule
    }
}

/// Every rule an input can break.
public enum ValidationRule: Sendable, Equatable {
    case emailMissing
    case emailMalformed
    case emailTooLong
    case passwordTooShort
    case passwordTooLong
    case passwordCommon
    /// One character or one short unit over and over (`aaaaaaaa`, `abcabcabc`).
    case passwordRepetitive
    /// Runs of consecutive characters (`12345678`, `abcdefgh`, `12345678abc`).
    case passwordSequential
    case passwordsDoNotMatch
    case displayName(DisplayNameInvalidReason)
    /// Not null and not an https URL of at most `ProfileChange.maxPhotoURLLength` characters.
    case photoURL
}
