/// What an import did: how many accounts it created and refreshed, and each account it
/// left out or imported without a display name, with why. The lists hold only those
/// exceptions (an id and a short code), never the accounts themselves.
public struct ImportSummary: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public let id: String
        public let reason: String
    }

    public struct NamelessEntry: Sendable, Equatable {
        public let id: String
        public let reason: ImportNamelessReason
    }

    public internal(set) var imported = 0
    public internal(set) var updated = 0
    /// Accounts not written; `reason` is an `ImportSkipReason`.
    public internal(set) var skipped: [Entry] = []
    /// Accounts written without a display name; their owners choose one with
    /// `PATCH /v1/users/me`.
    public internal(set) var nameless: [NamelessEntry] = []
}

/// Why an account was imported without a display name.
public enum ImportNamelessReason: Sendable, Equatable {
    /// The exports name none.
    case missing
    /// The name they give breaks the rules, is reserved, or another account has it.
    case unavailable(DisplayNameUnavailable)
}

/// Why an account of the export was not written.
public enum ImportSkipReason: String, Sendable {
    /// The uid is not 1 to 128 of `A-Z a-z 0-9 _ -`, or is `me` or `stream` (words of the
    /// routes where an id stands).
    case invalidID = "INVALID_ID"
    /// No email: a phone or anonymous account, which Latchkey cannot log in.
    case missingEmail = "MISSING_EMAIL"
    /// An email Latchkey's rules refuse.
    case invalidEmail = "INVALID_EMAIL"
    /// Another account (signed up on Latchkey, or imported with another uid) has the email.
    case emailExists = "EMAIL_EXISTS"
    /// Imported before and used since (its owner logged in or reset the password):
    /// Latchkey's copy is the one that counts now, and a new import leaves it alone.
    case accountInUse = "ACCOUNT_IN_USE"
}
