import AuthCrypto

/// Issuing and spending the single-use tokens mailed to an account (reset, verification,
/// email change): 256 random bits, stored as their SHA-256, at most one mail of each
/// purpose per account a minute, and a new token of a purpose voiding the older ones.
enum MailedTokens {
    /// At most one mail of each purpose (reset, verification, email change) per account per
    /// minute. Each purpose has its own minute: anyone may ask for a reset of any address, so
    /// a shared one would let a stranger hold back a user's verification or email-change mail.
    static let mailInterval: Int64 = 60

    /// A new token for `userID`, or nil when the account was mailed a token of `purpose`
    /// less than a minute ago (the caller then answers the same and sends nothing).
    static func issue(
        purpose: String, for userID: String, lifetime: Int64, now: Int64,
        newEmail: String? = nil, askingSession: String? = nil, on db: StoreConnection
    ) throws -> String? {
        if let last = try AccountTokenStore.lastSent(purpose, to: userID, on: db), now - last < mailInterval { return nil }
        let token = Base64URL.encode(SecureRandom.bytes(32))
        try AccountTokenStore.useAll(of: userID, purpose: purpose, now: now, on: db)
        try AccountTokenStore.insert(
            hash: SHA256.hash(token.utf8), userID: userID, purpose: purpose, now: now, lifetime: lifetime,
            newEmail: newEmail, askingSession: askingSession, on: db
        )
        return token
    }

    /// The user a live token of `purpose` belongs to, and the token used up (with every
    /// other live one of its purpose), or nil for an unknown, used or expired token.
    static func spend(_ token: String, purpose: String, now: Int64, on db: StoreConnection) throws -> String? {
        guard let userID = try AccountTokenStore.liveUser(hash: SHA256.hash(token.utf8), purpose: purpose, now: now, on: db) else {
            return nil
        }
        try AccountTokenStore.useAll(of: userID, purpose: purpose, now: now, on: db)
        return userID
    }
}
