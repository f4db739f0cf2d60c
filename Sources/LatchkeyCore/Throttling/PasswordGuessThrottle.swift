/// Password guessing, throttled the way NIST SP 800-63B asks without letting a stranger
/// lock a user out: `loginMaxFailures` failures for one account from one client address
/// within the window answer 429 to that address for that account; `accountMaxFailures`
/// from all addresses together answer 429 to everyone for that account. Checked before
/// any hash is computed, for every place that checks a password, and while throttled even
/// the right password is refused (anything else would confirm a guess). A login that
/// presents a valid device token (`DeviceToken`) is counted against that device alone,
/// `loginMaxFailures` per window, and never refused for the other two counts.
struct PasswordGuessThrottle: Sendable {
    let database: Database
    let policy: AccountsPolicy
    private let inFlight = PasswordChecksInFlight()

    /// Hashes one account, or one address, may have under way at once: enough for a
    /// person on a few devices, far below the hashing queue's capacity.
    static let concurrentChecksPerKey = 4

    /// A password check allowed to go ahead; hand it back to `finish` with the outcome.
    struct Attempt: Sendable {
        let accountKey: String
        /// Where a failure counts: the address and the account everywhere, or the device alone.
        let failureScopes: [String]
        /// What a success clears: the address's count, or the device's.
        let clearedScope: String
        fileprivate let claims: [PasswordChecksInFlight.Claim]
    }

    /// - Parameters:
    ///   - accountKey: the lower-cased email, registered or not (a lock must not reveal
    ///     which accounts exist).
    ///   - address: the client address as the API's `ClientAddress` spells it
    ///     (`PeerAddress.limitKey`: IPv6 by /64).
    ///   - device: a valid device token of the account, when the login presented one.
    func begin(accountKey: String, address: String, device: DeviceToken? = nil) throws -> Attempt {
        let scopes = [address, PasswordFailureStore.everywhere]
        guard policy.rateLimitsEnabled else {
            return Attempt(accountKey: accountKey, failureScopes: scopes, clearedScope: address, claims: [])
        }
        if let device { return try begin(accountKey: accountKey, device: device) }
        let now = UnixTime.now()
        let window = policy.loginFailureWindow
        let (local, everywhere) = try database.read { db in
            (try PasswordFailureStore.failures(accountKey: accountKey, scope: address, now: now, window: window, on: db),
             try PasswordFailureStore.failures(accountKey: accountKey, scope: PasswordFailureStore.everywhere, now: now, window: window, on: db))
        }
        let claims = [
            PasswordChecksInFlight.Claim(key: "account+address\u{0}\(accountKey)\u{0}\(address)", allowance: policy.loginMaxFailures - local.count),
            PasswordChecksInFlight.Claim(
                key: "account\u{0}\(accountKey)", allowance: min(policy.accountMaxFailures - everywhere.count, Self.concurrentChecksPerKey)
            ),
            PasswordChecksInFlight.Claim(key: "address\u{0}\(address)", allowance: Self.concurrentChecksPerKey),
        ]
        guard let full = inFlight.reserve(claims) else {
            return Attempt(accountKey: accountKey, failureScopes: scopes, clearedScope: address, claims: claims)
        }
        // Locked until the window that filled passes; a merely busy key, in a moment.
        let retryAfter: Int64 = if full.key == claims[0].key, local.count >= policy.loginMaxFailures {
            local.start + window - now
        } else if full.key == claims[1].key, everywhere.count >= policy.accountMaxFailures {
            everywhere.start + window - now
        } else {
            1
        }
        throw Throttled(retryAfter: Int(retryAfter))
    }

    private func begin(accountKey: String, device: DeviceToken) throws -> Attempt {
        let now = UnixTime.now()
        let window = policy.loginFailureWindow
        let scope = "device:" + device.deviceID
        let failures = try database.read { db in
            try PasswordFailureStore.failures(accountKey: accountKey, scope: scope, now: now, window: window, on: db)
        }
        let claim = PasswordChecksInFlight.Claim(key: "device\u{0}\(accountKey)\u{0}\(device.deviceID)", allowance: policy.loginMaxFailures - failures.count)
        guard inFlight.reserve([claim]) != nil else {
            return Attempt(accountKey: accountKey, failureScopes: [scope], clearedScope: scope, claims: [claim])
        }
        throw Throttled(retryAfter: Int(failures.count >= policy.loginMaxFailures ? failures.start + window - now : 1))
    }

    /// Frees the attempt's places when the check ended without a verdict.
    func abandon(_ attempt: Attempt) {
        inFlight.release(attempt.claims)
    }

    /// Records the outcome, then frees the attempt's places: a failure counts for the
    /// address and for the account; a success clears the address's count (the
    /// account-wide count only expires with its window).
    func finish(_ attempt: Attempt, succeeded: Bool) async throws {
        guard policy.rateLimitsEnabled else { return }
        defer { inFlight.release(attempt.claims) }
        let window = policy.loginFailureWindow
        try await database.write { db in
            let now = UnixTime.now()
            if succeeded {
                try PasswordFailureStore.reset(accountKey: attempt.accountKey, scope: attempt.clearedScope, on: db)
            } else {
                // Expired windows go, so guesses at made-up emails cannot grow the table.
                try PasswordFailureStore.prune(olderThan: now - window, on: db)
                for scope in attempt.failureScopes {
                    try PasswordFailureStore.recordFailure(accountKey: attempt.accountKey, scope: scope, now: now, window: window, on: db)
                }
            }
        }
    }
}
