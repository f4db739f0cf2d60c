import AuthCrypto
internal import SQLite

/// Refresh rotation, logout and the sessions list.
public struct SessionService: Sendable {
    let database: Database
    let issuer: TokenIssuer
    let policy: AccountsPolicy

    public init(database: Database, issuer: TokenIssuer, policy: AccountsPolicy) {
        self.database = database
        self.issuer = issuer
        self.policy = policy
    }

    private enum Rotation: Sendable {
        case rotated(User, sessionID: String, refreshToken: String)
        case invalid
        case reused
    }

    /// Each refresh token works once. A retired token presented again within the grace
    /// after its retirement (a client retrying) gets a new pair for the same session;
    /// later, it revokes the whole session: someone else holds the chain. The session
    /// remembers its last retired tokens, so reuse is caught however many rotations ago
    /// the token was retired, within that memory.
    public func refresh(_ token: String) async throws -> TokenPair {
        let rotated = try await withCheckedThrowingContinuation { continuation in
            rotate(token) { continuation.resume(with: $0) }
        }
        return try pair(for: rotated)
    }

    /// A rotated session, before its access token is signed.
    public struct Rotated: Sendable {
        let user: User
        let sessionID: String
        let refreshToken: String
    }

    /// The durable half of a refresh, answering through `completion` on the writer thread
    /// without a task hop; `pair(for:)` signs the result wherever the caller likes (not on
    /// the writer, the one serial step of every refresh).
    public func rotate(_ token: String, completion: @escaping @Sendable (Result<Rotated, any Error>) -> Void) {
        guard let sessionID = TokenIssuer.sessionID(ofRefreshToken: token) else {
            return completion(.failure(SessionError.invalidRefreshToken))
        }
        let presented = TokenIssuer.refreshHash(token)
        let (idle, grace) = (policy.sessionIdleTimeout, policy.refreshReuseGrace)
        // Drawn before the write: the writer thread is the one serial step of every refresh.
        let next = TokenIssuer.newRefreshToken(for: sessionID)
        // The job returns its verdict instead of throwing, so a theft revocation commits.
        database.submitWrite({ db -> Rotation in
            let now = UnixTime.now()
            guard let state = try SessionStore.refreshState(of: sessionID, on: db) else { return .invalid }
            let usable = state.session.isActive(now: now, idleTimeout: idle) && !state.user.disabled
            if ConstantTime.equals(presented, state.current) {
                guard usable else {
                    try SessionStore.revoke(sessionID, now: now, on: db)
                    return .invalid
                }
            } else {
                // An unknown token naming this session may be forged: it changes nothing.
                guard let retiredAt = state.retired.retiredAt(presented) else { return .invalid }
                guard usable, now - retiredAt <= grace else {
                    try SessionStore.revoke(sessionID, now: now, on: db)
                    return .reused
                }
                // A retry within the grace: the token issued in between is retired in
                // turn (and so caught if it turns up later); this client gets a fresh one.
            }
            try SessionStore.rotate(sessionID, to: next.hash, retired: state.retired.retiring(state.current, at: now), now: now, on: db)
            return .rotated(state.user, sessionID: sessionID, refreshToken: next.token)
        }, completion: { result in
            completion(result.flatMap { rotation in
                switch rotation {
                case .rotated(let user, let sessionID, let refreshToken):
                    .success(Rotated(user: user, sessionID: sessionID, refreshToken: refreshToken))
                case .invalid:
                    .failure(SessionError.invalidRefreshToken)
                case .reused:
                    .failure(SessionError.refreshTokenReused)
                }
            })
        })
    }

    /// Signs the access token of a rotated session.
    public func pair(for rotated: Rotated) throws -> TokenPair {
        try issuer.pair(for: rotated.user, sessionID: rotated.sessionID, refreshToken: rotated.refreshToken, now: UnixTime.now())
    }

    public func logout(_ caller: Authenticated) async throws {
        try await database.write { db in try SessionStore.revoke(caller.sessionID, now: UnixTime.now(), on: db) }
    }

    public func logoutAll(_ caller: Authenticated) async throws {
        try await database.write { db in try SessionStore.revokeAll(of: caller.userID, now: UnixTime.now(), on: db) }
    }

    /// The caller's active sessions, read inline on the event loop's connection.
    public func sessions(of caller: Authenticated, reader: StoreReader) throws -> [Session] {
        try reader.read { db in try SessionStore.active(of: caller.userID, since: UnixTime.now() - policy.sessionIdleTimeout, on: db) }
    }

    /// Only one of the caller's own active sessions can be deleted; anything else is 404.
    public func delete(_ sessionID: String, of caller: Authenticated) async throws {
        let idle = policy.sessionIdleTimeout
        let found = try await database.write { db -> Bool in
            let now = UnixTime.now()
            guard let session = try SessionStore.session(id: sessionID, on: db), session.userID == caller.userID,
                  session.isActive(now: now, idleTimeout: idle) else { return false }
            try SessionStore.revoke(session.id, now: now, on: db)
            return true
        }
        if !found { throw SessionError.notFound }
    }
}
