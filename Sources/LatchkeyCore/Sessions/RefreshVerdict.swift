/// What an authentic refresh token (`RefreshToken`) presented against its session's state
/// calls for, by the rules of `SessionService.rotate`. Pure, so the writer's job and
/// PostgreSQL's refresh batches decide alike. The verdicts that answer carry the state they
/// answer from.
enum RefreshVerdict {
    /// Of no session, or of a generation the session never reached (a database restored
    /// from before it): it changes nothing.
    case invalid
    /// The current generation of a usable session: it rotates to the next one.
    case rotate(RefreshState)
    /// An earlier generation back within the grace: the session's current token, no write.
    case current(RefreshState)
    /// The current generation, but the session or its user is no longer usable: the
    /// session is revoked and the token refused as invalid.
    case revokeUnusable(userID: String)
    /// An earlier generation outside the grace, or of a session no longer usable: someone
    /// else holds the chain, so the session is revoked (and audited), the token refused as reused.
    case revokeReused(userID: String)

    init(_ presented: RefreshToken, state: RefreshState?, now: Int64, policy: AccountsPolicy) {
        guard let state, presented.generation <= state.generation else {
            self = .invalid
            return
        }
        let usable = state.session.isActive(now: now, policy: policy) && !state.user.disabled
        if presented.generation == state.generation {
            self = usable ? .rotate(state) : .revokeUnusable(userID: state.user.id)
            return
        }
        // "Within" the grace includes its boundary.
        guard usable, let retiredAt = state.retirement(of: presented.generation), now - retiredAt <= policy.refreshReuseGrace else {
            self = .revokeReused(userID: state.user.id)
            return
        }
        self = .current(state)
    }
}
