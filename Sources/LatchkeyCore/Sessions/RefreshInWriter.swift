/// A refresh as one job of the database writer: the session's state read and the
/// verdict carried out in one write transaction. Every refresh on SQLite; on PostgreSQL
/// the ones a refresh batch hands over (revocations, races).
struct RefreshInWriter: Sendable {
    let database: Database
    let policy: AccountsPolicy
    /// A session revoked here is an account event like any other.
    let events: AccountEvents

    private enum Rotation: Sendable {
        case answered(RefreshState, generation: Int64)
        case invalid(revoked: EndedAccess?)
        case reused(EndedAccess)
    }

    func rotate(_ presented: RefreshToken, completion: @escaping @Sendable (Result<SessionService.Rotated, any Error>) -> Void) {
        let (policy, events) = (policy, events)
        let sessionID = presented.sessionID
        // The job returns its verdict instead of throwing, so a theft revocation commits.
        database.submitWrite({ db -> Rotation in
            let now = UnixTime.now()
            let state = try SessionStore.refreshState(of: sessionID, on: db)
            switch RefreshVerdict(presented, state: state, now: now, policy: policy) {
            case .invalid:
                return .invalid(revoked: nil)
            case .rotate(let state):
                try SessionStore.rotate(sessionID, to: state.generation + 1, now: now, on: db)
                return .answered(state, generation: state.generation + 1)
            case .current(let state):
                return .answered(state, generation: state.generation)
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
                case .answered(let state, let generation):
                    .success(SessionService.Rotated(
                        user: state.user, methods: state.session.methods, presented: presented, generation: generation))
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
