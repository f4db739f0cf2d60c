/// Failures of the account area; `LatchkeyAPI` maps each to its contract status and code.
public enum AccountError: Error, Sendable, Equatable {
    /// One or more fields failed validation (400, every failure listed).
    case invalid(ValidationErrors)
    case emailExists
    /// An email change to an address that is registered already (its field is `newEmail`).
    case newEmailExists
    /// Taken by someone else, or reserved by configuration (`reserved` true).
    case displayNameTaken(reserved: Bool)
    /// Unknown email or wrong password: deliberately one case, so the two read the same.
    case invalidCredentials
    case userDisabled
    case userNotFound
}

/// Too many attempts; try again after `retryAfter` seconds.
public struct Throttled: Error, Sendable, Equatable {
    public let retryAfter: Int

    public init(retryAfter: Int) {
        self.retryAfter = max(1, retryAfter)
    }
}
