import Threads

/// Revokes at Apple the refresh tokens of deleted accounts (`apple_revocations`), on a
/// thread of its own as the mail `OutboxSender` delivers mail: never on an event loop, never
/// inside a transaction (revocations are claimed, sent, then their outcome is written). A
/// failed revocation is retried with exponential back-off, across restarts (the queue is in
/// the database); one still failing after `maximumAge` is given up, its token dropped.
/// Senders of several instances over one database never take the same row: each claims its
/// batch for `lease` seconds. A token that does not open with this instance's `OutboxKey` is
/// retried like a failure, so an instance holding the right key can still send it.
public final class AppleRevocationSender: Sendable {
    private let database: Database
    private let endpoint: AppleTokenEndpoint
    private let key: OutboxKey
    private let report: @Sendable (String) -> Void
    private let thread = PollingThread()
    private static let batch = 16
    /// Apple may be down for a while, or the key misconfigured until an operator notices.
    static let maximumAge: Int64 = 7 * 24 * 3600
    /// Longer than a batch takes, however slow Apple answers (each call is bounded by `HTTPSClient`).
    static let lease: Int64 = 600

    /// `report` gets a line for each failed attempt (an account id, a client id and why;
    /// never a token), for the log.
    public init(
        database: Database, endpoint: AppleTokenEndpoint, key: OutboxKey, pollInterval: Double = 1,
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.database = database
        self.endpoint = endpoint
        self.key = key
        self.report = report
        thread.start(named: "apple-revoke", pollInterval: pollInterval) { [self] in revokeDue() == Self.batch }
    }

    /// Finishes the pass under way and ends the thread.
    public func stop() {
        thread.stop()
    }

    /// Sends what is due, at most a batch; returns how many it took.
    private func revokeDue() -> Int {
        guard (try? database.read({ db in try AppleTokenStore.anyDue(now: UnixTime.now(), on: db) })) == true else { return 0 }
        let due = database.writeAndWait { db -> [AppleTokenStore.Claimed] in
            let now = UnixTime.now()
            return try AppleTokenStore.claimDue(now: now, leaseEnd: now + Self.lease, limit: Self.batch, on: db)
        } ?? []
        for entry in due {
            guard !thread.isStopping else {
                // Not tried: due again at once for the next start, not after the lease.
                _ = database.writeAndWait { db in try AppleTokenStore.release(entry.id, now: UnixTime.now(), on: db) }
                continue
            }
            let failure = revoke(entry)
            _ = database.writeAndWait { db in
                let now = UnixTime.now()
                guard let failure else { return try AppleTokenStore.markRevoked(entry.id, now: now, on: db) }
                if entry.sealedToken == nil {
                    try AppleTokenStore.markAbandoned(entry.id, now: now, error: failure, on: db)
                } else if now - entry.createdAt > Self.maximumAge {
                    try AppleTokenStore.markAbandoned(entry.id, now: now, error: "\(failure), for \(Self.maximumAge / 86400) days", on: db)
                } else {
                    try AppleTokenStore.markFailed(entry.id, retryAt: now + RetryBackoff.delay(afterAttempts: entry.attempts), error: failure, on: db)
                }
            }
            if let failure {
                report("revoking the Apple token of account \(entry.userID) for client \(entry.clientID) failed (attempt \(entry.attempts + 1)): \(failure)")
            }
        }
        return due.count
    }

    /// Nil once Apple has revoked the token; else why not.
    private func revoke(_ entry: AppleTokenStore.Claimed) -> String? {
        guard let box = entry.sealedToken else { return "the revocation holds no token" }
        guard let token = AppleRefreshTokenSeal.opened(box, userID: entry.userID, clientID: entry.clientID, with: key) else {
            return "the token does not open with this instance's outbox-key (sealed under another key)"
        }
        do throws(AppleTokenError) {
            try endpoint.revoke(refreshToken: token, clientID: entry.clientID)
            return nil
        } catch {
            return error.description
        }
    }
}
