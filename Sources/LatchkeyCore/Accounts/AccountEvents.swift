/// Carries out account events (`AccountEvent`): `record` inside the transaction that makes
/// the change, `published` once it has committed. The services, the refresh path and the
/// admin commands all go through here, so an event's consequences are written once.
public struct AccountEvents: Sendable {
    let bus: AccountEventBus
    let policy: AccountsPolicy
    /// The notices' composer; nil where no notice is sent (the admin commands).
    let mail: MailComposer?

    /// Ends the event's sessions, voids its links and device tokens, writes its audit entry
    /// and notice, takes a user left without a live session offline, and tells the other
    /// processes once the transaction commits. For `.deleted`, call after the account's
    /// rows are gone. `address` is the client's, for the audit log.
    func record(_ event: AccountEvent, userID: String, address: String? = nil, now: Int64, on db: StoreConnection) throws -> EndedAccess {
        let deleted = event.deletesAccount
        if !deleted {
            try AccountEventStore.endSessions(event.ends, of: userID, now: now, on: db)
            if event.voidsEveryLink {
                try AccountEventStore.voidEveryLink(of: userID, now: now, on: db)
            } else if case .one(let session) = event.ends {
                try AccountEventStore.voidLinks(askedBy: session, now: now, on: db)
            }
            if event.voidsDeviceTokens { try AccountEventStore.advancePasswordEpoch(of: userID, on: db) }
        }
        if let audit = event.audit {
            try AuditStore.append(audit.event, user: userID, address: address, session: audit.session, detail: audit.detail, now: now, on: db)
        }
        // An account without an address (a provider shared none) is told nothing by mail.
        if let notice = event.notice, let mail, let address = try AccountStore.user(id: userID, on: db)?.email {
            try OutboxStore.enqueue(mail.notice(notice, to: address), now: now, on: db)
        }
        let endsSessions = event.ends != .noSession
        let wentOffline = try deleted || (endsSessions && takeOfflineIfNoLiveSession(userID, now: now, on: db))
        let ended = EndedAccess(userID: userID, sessions: event.ends, accountDeleted: deleted, offlineAt: wentOffline ? now : nil)
        try AccountEventStore.announce(ended, from: bus.origin, now: now, on: db)
        return ended
    }

    /// Once the transaction of `record` committed: this instance's streams and caches act,
    /// and the call returns when they have (the answer to the client comes after).
    func published(_ ended: EndedAccess) async {
        await bus.deliver(ended)
    }

    /// A user with no live session left is offline at once, whether or not they held a stream.
    private func takeOfflineIfNoLiveSession(_ userID: String, now: Int64, on db: StoreConnection) throws -> Bool {
        let live = try SessionStore.hasActive(of:
            userID, usedSince: now - policy.sessionIdleTimeout, createdSince: now - policy.sessionMaxLifetime, on: db)
        guard !live, let status = try AccountEventStore.presenceStatus(of: userID, on: db), status != PresenceStatus.offline.rawValue else {
            return false
        }
        try AccountStore.setPresence(PresenceStatus.offline.rawValue, for: userID, now: now, on: db)
        return true
    }
}
