internal import SQLite

/// Failures of email verification.
public enum EmailVerificationError: Error, Sendable, Equatable {
    case alreadyVerified
    /// Unknown, used, replaced by a newer link, or older than a day.
    case tokenInvalid
}

/// "Confirm your address": a single-use link by mail that marks the address verified.
public struct EmailVerificationService: Sendable {
    let database: Database
    let mail: MailComposer
    let mailQueued: @Sendable () -> Void

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
            guard let token = try MailedTokens.issue(purpose: Self.purpose, for: user.id, lifetime: Self.tokenLifetime, now: now, on: db) else {
                return false
            }
            try OutboxStore.enqueue(mail.emailVerification(to: user.email, token: token), now: now, on: db)
            return true
        }
        if queued { mailQueued() }
    }

    /// Marks the address verified and uses the link up.
    public func confirm(token: String) async throws {
        try await database.write { db in
            let now = UnixTime.now()
            guard let userID = try MailedTokens.spend(token, purpose: Self.purpose, now: now, on: db) else {
                throw EmailVerificationError.tokenInvalid
            }
            try AccountStore.markEmailVerified(userID, now: now, on: db)
        }
    }
}
