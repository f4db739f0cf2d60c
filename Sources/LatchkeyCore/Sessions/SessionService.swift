/// Refresh rotation, logout and the sessions list.
public struct SessionService: Sendable {
    let database: Database
    let issuer: TokenIssuer
    let policy: AccountsPolicy
    let events: AccountEvents
    private let refreshInWriter: RefreshInWriter
    /// Where the database is across the network (PostgreSQL), refreshes in batches.
    private let refreshBatches: RefreshBatches?

    init(database: Database, issuer: TokenIssuer, policy: AccountsPolicy, events: AccountEvents) {
        self.database = database
        self.issuer = issuer
        self.policy = policy
        self.events = events
        let refreshInWriter = RefreshInWriter(database: database, policy: policy, events: events)
        self.refreshInWriter = refreshInWriter
        refreshBatches = database.networkReaderConnections.map { _ in
            RefreshBatches(database: database, policy: policy, inWriter: refreshInWriter)
        }
    }

    /// Refreshes per batch on PostgreSQL, for `/metrics`; nil on SQLite.
    var refreshBatchSizes: Histogram? { refreshBatches?.batchSizes }

    /// Of those, refreshes per batch that needed their sessions read (`RefreshBatches`).
    var refreshReadBatchSizes: Histogram? { refreshBatches?.readBatchSizes }

    /// A refreshed session, before its tokens are made.
    public struct Rotated: Sendable {
        let user: User
        let methods: SignInMethods
        /// The token that was presented: its session's id and seed.
        let presented: RefreshToken
        let generation: Int64

        var sessionID: String { presented.sessionID }
    }

    /// Each refresh token works once. A token of the generation before (or the one
    /// before that) presented again within the grace after its retirement (a client
    /// retrying, or two tasks of one app refreshing together) gets the session's CURRENT
    /// token, not a new rotation, so every copy of the app ends up with the same working
    /// token. Any other authentic token of an earlier generation revokes the session:
    /// someone else holds the chain, however many rotations ago it forked.
    ///
    /// This is the durable half of a refresh, answering through `completion` on the thread
    /// that made it durable (the writer, or on PostgreSQL a refresh batch's) without a task
    /// hop; `pair(for:)` makes the tokens wherever the caller likes. A token the server did not
    /// make (forged, or of a format before derived seeds) is refused here, on the caller's
    /// thread, before any statement.
    public func rotate(_ token: String, completion: @escaping @Sendable (Result<Rotated, any Error>) -> Void) {
        guard let presented = issuer.authenticRefreshToken(token) else {
            return completion(.failure(SessionError.invalidRefreshToken))
        }
        if let refreshBatches {
            refreshBatches.rotate(presented, completion: completion)
        } else {
            refreshInWriter.rotate(presented, completion: completion)
        }
    }

    /// Makes the refresh token and signs the access token of a refreshed session.
    public func pair(for rotated: Rotated) throws -> TokenPair {
        let refreshToken = issuer.refreshToken(following: rotated.presented, generation: rotated.generation)
        return try issuer.pair(
            for: rotated.user, sessionID: rotated.sessionID, methods: rotated.methods, refreshToken: refreshToken, now: UnixTime.now())
    }

    public func logout(_ caller: Authenticated) async throws {
        let ended = try await database.write { [events] db in
            try events.record(.loggedOut(session: caller.sessionID), userID: caller.userID, now: UnixTime.now(), on: db)
        }
        await events.published(ended)
    }

    public func logoutAll(_ caller: Authenticated) async throws {
        let ended = try await database.write { [events] db in
            try events.record(.loggedOutEverywhere(fromSession: caller.sessionID), userID: caller.userID, now: UnixTime.now(), on: db)
        }
        await events.published(ended)
    }

    /// The caller's active sessions, read inline on the event loop's connection.
    public func sessions(of caller: Authenticated, reader: StoreReader) throws -> [Session] {
        let now = UnixTime.now()
        return try reader.read { db in
            try SessionStore.active(
                of: caller.userID, usedSince: now - policy.sessionIdleTimeout, createdSince: now - policy.sessionMaxLifetime, on: db
            )
        }
    }

    /// Only one of the caller's own active sessions can be deleted; anything else is 404.
    public func delete(_ sessionID: String, of caller: Authenticated) async throws {
        guard RequestedIdentifier.canExist(sessionID) else { throw SessionError.notFound }
        let (policy, events) = (policy, events)
        let ended = try await database.write { db -> EndedAccess? in
            let now = UnixTime.now()
            guard let session = try SessionStore.session(id: sessionID, on: db), session.userID == caller.userID,
                  session.isActive(now: now, policy: policy) else { return nil }
            return try events.record(.sessionRevoked(session.id, by: .owner(fromSession: caller.sessionID)), userID: caller.userID, now: now, on: db)
        }
        guard let ended else { throw SessionError.notFound }
        await events.published(ended)
    }
}
