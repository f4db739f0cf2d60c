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
    /// The account has a password and the request did not send it.
    case passwordRequired
    /// The account has no password, and the caller's session signed in too long ago to
    /// stand in for one (`RecentSignIn`): sign in again.
    case recentLoginRequired
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
