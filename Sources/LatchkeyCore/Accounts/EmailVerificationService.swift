import AuthCrypto

/// Failures of email verification.
public enum EmailVerificationError: Error, Sendable, Equatable {
    case alreadyVerified
    /// Unknown, used, replaced by a newer link, or older than a day.
    case tokenInvalid
}

/// What following a verification link did.
public enum EmailConfirmation: Sendable, Equatable {
    /// The account's address is now verified.
    case addressVerified
    /// The account moved to the new address of an email change (verified).
    case addressChanged
}

/// "Confirm your address": a single-use link by mail that marks the address verified.
public struct EmailVerificationService: Sendable {
    let database: Database
    let mail: MailComposer
    let mailQueued: @Sendable () -> Void
    let events: AccountEvents

    static let purpose = "verify"
    /// A verification link works for a day.
    static let tokenLifetime: Int64 = 86_400

    /// Mails a link to the caller's address, unless one went out in the last minute (the
    /// same answer, nothing sent).
    public func request(for caller: Authenticated) async throws {
        let mail = mail
        let queued = try await database.write { db -> Bool in
            let now = UnixTime.now()
            guard let user = try AccountStore.user(id: caller.userID, on: db) else { throw AccessError.sessionRevoked }
            if user.emailVerified { throw EmailVerificationError.alreadyVerified }
            // An account a provider made without an address has nothing to verify: the same
            // answer, nothing sent.
            guard let address = user.email else { return false }
            guard let token = try MailedTokens.issue(purpose: Self.purpose, for: user.id, lifetime: Self.tokenLifetime, now: now, on: db) else {
                return false
            }
            try OutboxStore.enqueue(mail.emailVerification(to: address, token: token), now: now, on: db)
            return true
        }
        if queued { mailQueued() }
    }

    /// Whether a verification or email-change link still works (unused, not voided, not
    /// expired), without spending it: what the page behind the link checks before it shows
    /// its button.
    public func isLive(token: String, reader: StoreReader) throws -> Bool {
        let hash = SHA256.hash(token.utf8)
        return try reader.read { db in
            try AccountTokenStore.live(hash: hash, purposes: [Self.purpose, EmailChange.purpose], now: UnixTime.now(), on: db)
        } != nil
    }

    /// Follows a mailed link: marks the address verified, or, for an email change, moves
    /// the account to the new (now verified) address and ends every session but the one
    /// that asked, which must still be live (a link dies with the session that asked). If
    /// someone registered the new address meanwhile, nothing changes (`AccountError.emailExists`).
    @discardableResult
    public func confirm(token: String) async throws -> EmailConfirmation {
        let hash = SHA256.hash(token.utf8)
        let (events, policy) = (events, events.policy)
        let changed = try await database.write { db -> (EndedAccess, EmailConfirmation) in
            let now = UnixTime.now()
            guard let live = try AccountTokenStore.live(hash: hash, purposes: [Self.purpose, EmailChange.purpose], now: now, on: db) else {
                throw EmailVerificationError.tokenInvalid
            }
            try AccountTokenStore.useAll(of: live.userID, purpose: live.purpose, now: now, on: db)
            guard live.purpose == EmailChange.purpose else {
                try AccountStore.markEmailVerified(live.userID, now: now, on: db)
                return (try events.record(.profileChanged, userID: live.userID, now: now, on: db), .addressVerified)
            }
            guard let newEmail = live.newEmail, case .success(let email) = EmailRules.normalize(newEmail),
                  let asking = live.askingSession, let session = try SessionStore.session(id: asking, on: db),
                  session.userID == live.userID, session.isActive(now: now, policy: policy)
            else {
                throw EmailVerificationError.tokenInvalid
            }
            if try AccountStore.emailExists(email.key, on: db) { throw AccountError.emailExists }
            try AccountStore.changeEmail(of: live.userID, to: email, now: now, on: db)
            return (try events.record(.emailChanged(askingSession: asking), userID: live.userID, now: now, on: db), .addressChanged)
        }
        await events.published(changed.0)
        return changed.1
    }
}
