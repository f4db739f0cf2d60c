import AuthCrypto

/// A refresh as one job of the database writer: the session's state read and the
/// verdict carried out in one write transaction. Every refresh on SQLite; on PostgreSQL
/// the ones a refresh batch hands over (revocations, races).
struct RefreshInWriter: Sendable {
    let database: Database
    let policy: AccountsPolicy
    let key: HMACKey
    /// A session revoked here is an account event like any other.
    let events: AccountEvents

    private enum Rotation: Sendable {
        case answered(User, sessionID: String, generation: Int64, seed: [UInt8])
        case invalid(revoked: EndedAccess?)
        case reused(EndedAccess)
    }

    func rotate(_ presented: RefreshToken, completion: @escaping @Sendable (Result<SessionService.Rotated, any Error>) -> Void) {
        let (policy, key, events) = (policy, key, events)
        // The job returns its verdict instead of throwing, so a theft revocation commits.
        database.submitWrite({ db -> Rotation in
            let now = UnixTime.now()
            let sessionID = presented.sessionID
            let state = try SessionStore.refreshState(of: sessionID, on: db)
            switch RefreshVerdict(presented, state: state, now: now, policy: policy, key: key) {
            case .invalid:
                return .invalid(revoked: nil)
            case .rotate(let state, let generation):
                try SessionStore.rotate(sessionID, to: generation + 1, now: now, on: db)
                return .answered(state.user, sessionID: sessionID, generation: generation + 1, seed: state.seed)
            case .current(let state):
                return .answered(state.user, sessionID: sessionID, generation: state.generation, seed: state.seed)
            case .revokeUnusable(let userID):
                // Once: a session revoked already has had its event.
                guard state?.session.revokedAt == nil else { return .invalid(revoked: nil) }
                return .invalid(revoked: try events.record(.sessionRevoked(sessionID, by: .unusable), userID: userID, now: now, on: db))
            case .revokeReused(let userID):
                return .reused(try events.record(.sessionRevoked(sessionID, by: .refreshReused), userID: userID, now: now, on: db))
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
            switch result {
            case .success(.reused(let ended)), .success(.invalid(revoked: let ended?)): Task { await events.published(ended) }
            default: break
            }
        })
    }
}
