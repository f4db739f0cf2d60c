import AuthCrypto

/// A refresh as one job of the database writer: the session's state read and the
/// verdict carried out in one write transaction. Every refresh on SQLite; on PostgreSQL
/// the ones a refresh batch hands over (revocations, races).
struct RefreshInWriter: Sendable {
    let database: Database
    let policy: AccountsPolicy
    let key: HMACKey
    /// A session revoked for reuse takes its presence streams with it.
    let streams: PresenceStreams

    private enum Rotation: Sendable {
        case answered(User, sessionID: String, generation: Int64, seed: [UInt8])
        case invalid
        case reused
    }

    func rotate(_ presented: RefreshToken, completion: @escaping @Sendable (Result<SessionService.Rotated, any Error>) -> Void) {
        let (policy, key, streams) = (policy, key, streams)
        // The job returns its verdict instead of throwing, so a theft revocation commits.
        database.submitWrite({ db -> Rotation in
            let now = UnixTime.now()
            let sessionID = presented.sessionID
            let state = try SessionStore.refreshState(of: sessionID, on: db)
            switch RefreshVerdict(presented, state: state, now: now, policy: policy, key: key) {
            case .invalid:
                return .invalid
            case .rotate(let state, let generation):
                try SessionStore.rotate(sessionID, to: generation + 1, now: now, on: db)
                return .answered(state.user, sessionID: sessionID, generation: generation + 1, seed: state.seed)
            case .current(let state):
                return .answered(state.user, sessionID: sessionID, generation: state.generation, seed: state.seed)
            case .revokeUnusable:
                try SessionStore.revoke(sessionID, now: now, on: db)
                return .invalid
            case .revokeReused(let userID):
                try SessionStore.revoke(sessionID, now: now, on: db)
                try AuditStore.append(.refreshReused, user: userID, session: sessionID, now: now, on: db)
                return .reused
            }
        }, completion: { result in
            completion(result.flatMap { rotation in
                switch rotation {
                case .answered(let user, let sessionID, let generation, let seed):
                    .success(SessionService.Rotated(user: user, sessionID: sessionID, generation: generation, seed: seed))
                case .invalid:
                    .failure(SessionError.invalidRefreshToken)
                case .reused:
                    .failure(SessionError.refreshTokenReused)
                }
            })
            if case .success(.reused) = result {
                Task { await streams.end(session: presented.sessionID) }
            }
        })
    }
}
