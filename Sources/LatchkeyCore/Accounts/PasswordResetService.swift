import AuthCrypto

/// Failures of the password-reset confirmation.
public enum PasswordResetError: Error, Sendable, Equatable {
    /// Unknown, used, voided by a newer request, or older than an hour.
    case tokenInvalid
}

/// "Forgot password?": a single-use link by mail, then a new password.
public struct PasswordResetService: Sendable {
    let database: Database
    let hashing: HashingPool
    let policy: AccountsPolicy
    let mail: MailComposer
    let mailQueued: @Sendable () -> Void
    let events: AccountEvents

    static let purpose = "reset"
    /// A reset link works for an hour.
    static let tokenLifetime: Int64 = 3600

    /// The same answer, in about the same time, whether or not the address is registered
    /// and whether or not a mail goes out: the work is handed to the database writer and
    /// not waited for, so no path is one commit slower than another. The token and its
    /// mail are written in one transaction; a new request voids the older links. The
    /// sender is not woken: the mail leaves at its next pass (within a second), so the
    /// work of delivering it (a TLS handshake, say) is not tied to this request's timing,
    /// where a client measuring its next request could see it.
    public func request(email rawEmail: String) throws {
        let email: ValidEmail
        switch EmailRules.normalize(rawEmail) {
        case .success(let valid): email = valid
        case .failure(let failure): throw AccountError.invalid(ValidationErrors([failure]))
        }
        let mail = mail
        database.submitWrite({ db in
            let now = UnixTime.now()
            guard let user = try AccountStore.credentials(emailKey: email.key, on: db)?.user, !user.disabled, let address = user.email,
                  let token = try MailedTokens.issue(purpose: Self.purpose, for: user.id, lifetime: Self.tokenLifetime, now: now, on: db)
            else { return }
            try OutboxStore.enqueue(mail.passwordReset(to: address, token: token), now: now, on: db)
        }, completion: { _ in })
    }

    /// Whether a reset link still works (unused, not voided, not expired): what the page
    /// behind the link shows first.
    public func isLive(token: String, reader: StoreReader) throws -> Bool {
        let hash = SHA256.hash(token.utf8)
        return try reader.read { db in try AccountTokenStore.liveUser(hash: hash, purpose: Self.purpose, now: UnixTime.now(), on: db) } != nil
    }

    /// Sets the new password, uses the token up and ends every session; the account's
    /// address gets a notice.
    public func confirm(token: String, newPassword: String) async throws {
        if let weak = PasswordRules.check(newPassword, field: "newPassword") { throw AccountError.invalid(ValidationErrors([weak])) }
        let hash = SHA256.hash(token.utf8)
        let now = UnixTime.now()
        guard try database.read({ db in try AccountTokenStore.liveUser(hash: hash, purpose: Self.purpose, now: now, on: db) }) != nil else {
            throw PasswordResetError.tokenInvalid
        }
        let hasher = PasswordHasher(iterations: policy.passwordIterations)
        let newHash = try await hashing.run { hasher.hashNormalized(newPassword) }
        let ended = try await database.write { [events] db in
            let now = UnixTime.now()
            // Checked again inside the write: two confirmations of one link cannot both pass.
            guard let userID = try MailedTokens.spend(token, purpose: Self.purpose, now: now, on: db),
                  try AccountStore.user(id: userID, on: db) != nil else { throw PasswordResetError.tokenInvalid }
            try AccountStore.setPasswordHash(newHash, for: userID, now: now, on: db)
            return try events.record(.passwordReset, userID: userID, now: now, on: db)
        }
        mailQueued()
        await events.published(ended)
    }
}
