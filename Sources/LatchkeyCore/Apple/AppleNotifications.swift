/// `POST /v1/auth/idp/apple/notifications`: Apple's server-to-server notifications for
/// Sign in with Apple. Apple's signature is their only authentication (there is no
/// header to check), so each is verified as an Apple ID token is, against Apple's keys.
/// Every outcome is idempotent: a replayed `consent-revoked` or `account-delete` finds the
/// identity already gone (an unknown `sub`, acknowledged and ignored); a replayed
/// `email-disabled` or `email-enabled` adds one more audit line.
public struct AppleNotifications: Sendable {
    let identities: IdentityService
    let pictures: ProfilePictures

    init(identities: IdentityService, pictures: ProfilePictures) {
        self.identities = identities
        self.pictures = pictures
    }

    /// Throws `IdentityError.notificationInvalid` for a payload Apple did not sign or whose
    /// claims do not check out, `.providerNotFound` without Sign in with Apple configured;
    /// else the store's error.
    public func receive(_ payload: String, from address: String) async throws {
        let provider = try identities.provider(named: IdentityProvider.appleName)
        let verified: [UInt8]
        do {
            verified = try await identities.verifiedPayload(payload, for: provider)
        } catch .tokenInvalid(let failure) {
            throw IdentityError.notificationInvalid(failure)
        }
        let notification: AppleNotification
        switch AppleNotification.check(payload: verified, provider: provider, now: UnixTime.now()) {
        case .success(let checked): notification = checked
        case .failure(let failure): throw IdentityError.notificationInvalid(failure)
        }
        try await act(on: notification, from: address)
    }

    private func act(on notification: AppleNotification, from address: String) async throws {
        let (database, events) = (identities.database, identities.events)
        let apple = IdentityProvider.appleName
        switch notification.kind {
        case .other:
            return
        case .emailDisabled, .emailEnabled:
            try await database.write { db in
                guard let userID = try IdentityStore.userID(provider: apple, subject: notification.subject, on: db) else { return }
                let event: AuditEvent = notification.kind == .emailDisabled ? .identityEmailDisabled : .identityEmailEnabled
                try AuditStore.append(event, user: userID, address: address, detail: apple, now: UnixTime.now(), on: db)
            }
        case .consentRevoked, .accountDeleted:
            let ended = try await database.write { db -> (userID: String, ended: [EndedAccess])? in
                guard let userID = try IdentityStore.userID(provider: apple, subject: notification.subject, on: db) else { return nil }
                let now = UnixTime.now()
                let revoked = try events.record(
                    .identityRevokedByProvider(provider: apple, reason: notification.typeName), userID: userID, address: address, now: now, on: db)
                try IdentityStore.delete(of: userID, provider: apple, on: db)
                // Apple already ended the authorization: nothing to revoke there.
                try AppleTokenStore.drop(userID: userID, on: db)
                let ways = try IdentityStore.waysIn(of: userID, on: db)
                guard !ways.password, ways.passkeys == 0, ways.identities == 0 else { return (userID, [revoked]) }
                try AccountStore.deleteUser(userID, on: db)
                return (userID, [revoked, try events.record(.deletedByProvider(provider: apple), userID: userID, address: address, now: now, on: db)])
            }
            guard let ended else { return }
            for access in ended.ended { await events.published(access) }
            if ended.ended.count > 1 { pictures.removeAll(of: ended.userID) }  // once the account is gone for good
        }
    }
}
