/// Moving an account to another address: nothing changes until the link mailed to the new
/// address is followed (`EmailVerificationService.confirm`); the old address hears of the
/// request at once.
enum EmailChange {
    static let purpose = "email_change"
    /// The link to the new address works for a day, like a verification link.
    static let tokenLifetime: Int64 = 86_400
}

extension AccountService {
    /// Checks the password (counted like a login), then mails a link to the new address
    /// and a notice to the old one, unless a mail went to the account in the last minute
    /// (the same answer, nothing sent).
    public func requestEmailChange(_ caller: Authenticated, newEmail rawEmail: String, password: String, from address: String) async throws {
        let email: ValidEmail
        switch EmailRules.normalize(rawEmail) {
        case .success(let valid): email = valid
        case .failure(let failure): throw AccountError.invalid(ValidationErrors([ValidationFailure(field: "newEmail", rule: failure.rule)]))
        }
        try await verifyPassword(password, of: caller, from: address)
        let mail = mail
        let queued = try await database.write { db -> Bool in
            let now = UnixTime.now()
            guard let user = try AccountStore.user(id: caller.userID, on: db) else { throw AccessError.sessionRevoked }
            if try AccountStore.emailExists(email.key, on: db) { throw AccountError.newEmailExists }
            guard let token = try MailedTokens.issue(
                purpose: EmailChange.purpose, for: user.id, lifetime: EmailChange.tokenLifetime, now: now,
                newEmail: email.address, askingSession: caller.sessionID, on: db
            ) else { return false }
            try OutboxStore.enqueue(mail.emailChangeConfirmation(to: email.address, token: token), now: now, on: db)
            if let oldAddress = user.email {
                try OutboxStore.enqueue(mail.emailChangeNotice(to: oldAddress, newAddress: email.address), now: now, on: db)
            }
            return true
        }
        if queued { mailQueued() }
    }
}
