import SQLite

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

    /// Each refresh token works once. A rotated token presented again within the grace
    /// (a client retrying) gets a new pair for the same session; later, it revokes the
    /// whole session: someone else holds the chain.
    public func refresh(_ token: String) async throws -> TokenPair {
        let presented = TokenIssuer.refreshHash(token)
        let (idle, grace) = (policy.sessionIdleTimeout, policy.refreshReuseGrace)
        // Drawn before the write: the writer thread is the one serial step of every refresh.
        let next = TokenIssuer.newRefreshToken()
        // The job returns its verdict instead of throwing, so a theft revocation commits.
        let rotation: Rotation = try await database.write { db in
            let now = UnixTime.now()
            if let (session, user) = try SessionStore.sessionWithUser(refreshHash: presented, on: db) {
                guard session.isActive(now: now, idleTimeout: idle) else {
                    try SessionStore.revoke(session.id, now: now, on: db)
                    return .invalid
                }
                try SessionStore.rotate(session.id, from: presented, to: next.hash, now: now, on: db)
                return .rotated(user, sessionID: session.id, refreshToken: next.token)
            }
            guard let session = try SessionStore.session(previousRefreshHash: presented, on: db) else { return .invalid }
            if session.revokedAt != nil { return .reused }
            guard let rotatedAt = session.rotatedAt, now - rotatedAt <= grace, session.isActive(now: now, idleTimeout: idle) else {
                try SessionStore.revoke(session.id, now: now, on: db)
                return .reused
            }
            try SessionStore.reissue(session.id, to: next.hash, now: now, on: db)
            return try Self.rotated(session, next.token, on: db)
        }
        switch rotation {
        case .rotated(let user, let sessionID, let refreshToken):
            return try issuer.pair(for: user, sessionID: sessionID, refreshToken: refreshToken, now: UnixTime.now())
        case .invalid:
            throw SessionError.invalidRefreshToken
        case .reused:
            throw SessionError.refreshTokenReused
        }
    }

    private static func rotated(_ session: Session, _ token: String, on db: Connection) throws -> Rotation {
        guard let user = try AccountStore.user(id: session.userID, on: db) else { return .invalid }
        return .rotated(user, sessionID: session.id, refreshToken: token)
    }

    public func logout(_ caller: Authenticated) async throws {
        try await database.write { db in try SessionStore.revoke(caller.sessionID, now: UnixTime.now(), on: db) }
    }

    public func logoutAll(_ caller: Authenticated) async throws {
        try await database.write { db in try SessionStore.revokeAll(of: caller.userID, now: UnixTime.now(), on: db) }
    }

    /// The caller's active sessions, read inline on the event loop's connection.
    public func sessions(of caller: Authenticated, reader: Connection) throws -> [Session] {
        try SessionStore.active(of: caller.userID, since: UnixTime.now() - policy.sessionIdleTimeout, on: reader)
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
