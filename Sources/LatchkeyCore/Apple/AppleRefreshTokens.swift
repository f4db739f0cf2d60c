import Threads

/// What Sign in with Apple's server side keeps: after a sign-in that carried Apple's
/// authorization code, the code is exchanged at Apple for a refresh token, which is kept
/// sealed (`AppleRefreshTokenSeal`) so that deleting the account can revoke it at Apple
/// (App Store review guideline 5.1.1(v)): `AccountStore.deleteUser` moves it into the
/// revocation queue that `AppleRevocationSender` works off.
public final class AppleRefreshTokens: Sendable {
    let database: Database
    let endpoint: AppleTokenEndpoint
    let key: OutboxKey
    /// Gets a line for each exchange that kept nothing (an account id, a client id and why;
    /// never a code or token), for the log.
    let report: @Sendable (String) -> Void
    /// Each exchange blocks a thread on Apple for up to `HTTPSClient`'s total deadline: a few
    /// threads of their own, a bounded queue, never the cooperative pool or an event loop.
    private let exchanges: BoundedThreadPool

    public init(
        database: Database, endpoint: AppleTokenEndpoint, key: OutboxKey, threads: Int = 2, queueCapacity: Int = 64,
        report: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.database = database
        self.report = report
        self.endpoint = endpoint
        self.key = key
        exchanges = BoundedThreadPool(named: "apple-token", threads: threads, capacity: queueCapacity)
    }

    /// Exchanges `authorizationCode` (issued by Apple to `clientID`, one of the configured
    /// client ids the identity token's `aud` named) and keeps Apple's refresh token for the
    /// account, replacing (and queueing for revocation) any it had for that client. When the
    /// account was deleted meanwhile, the new token is queued for revocation at once.
    /// `subject` is the Apple user the sign-in proved: a code Apple issued to another user
    /// (its ID token's `sub` differs) is not kept, so nobody parks someone else's
    /// authorization on their account (and revokes it by deleting that account).
    /// Throws `AppleTokenError` when Apple gave no token or another user's, or the store's error.
    public func store(forAccount userID: String, clientID: String, authorizationCode: String, subject: String) async throws {
        let grant = try await exchange(authorizationCode, clientID: clientID)
        guard let granted = grant.subject, granted.utf8.elementsEqual(subject.utf8) else {
            throw AppleTokenError.subjectMismatch
        }
        let token = grant.refreshToken
        let sealed = AppleRefreshTokenSeal.sealed(token, userID: userID, clientID: clientID, with: key)
        try await database.write { db in
            let now = UnixTime.now()
            if try AccountStore.user(id: userID, on: db) == nil {
                try AppleTokenStore.queueRevocation(sealed, userID: userID, clientID: clientID, now: now, on: db)
            } else {
                try AppleTokenStore.store(sealed, userID: userID, clientID: clientID, now: now, on: db)
            }
        }
    }

    /// `store`, for a sign-in or link that already succeeded: a failure is reported, not
    /// thrown, since the user is signed in either way (only the revocation on deletion is
    /// lost, as for a sign-in without a code).
    func storeAfterSignIn(forAccount userID: String, clientID: String, authorizationCode: String, subject: String) async {
        do {
            try await store(forAccount: userID, clientID: clientID, authorizationCode: authorizationCode, subject: subject)
        } catch {
            report("keeping the Apple refresh token of account \(userID) for client \(clientID) failed: \(error)")
        }
    }

    /// Queues the account's token for `clientID` (all its tokens when nil) for revocation:
    /// an identity unlinked, or Apple's notice that the user stopped using Apple ID with the app.
    public func revoke(forAccount userID: String, clientID: String? = nil) async throws {
        try await database.write { db in try AppleTokenStore.queueRevocations(userID: userID, clientID: clientID, now: UnixTime.now(), on: db) }
    }

    private func exchange(_ code: String, clientID: String) async throws(AppleTokenError) -> AppleTokenGrant {
        let endpoint = endpoint
        let result: Result<AppleTokenGrant, AppleTokenError> = await withCheckedContinuation { continuation in
            let accepted = exchanges.submit { _ in
                continuation.resume(returning: Result { () throws(AppleTokenError) in try endpoint.exchange(code: code, clientID: clientID) })
            }
            if !accepted { continuation.resume(returning: .failure(.busy)) }
        }
        return try result.get()
    }
}
