/// A session as a refresh sees it: the session, its user, and the rotation state.
struct RefreshState {
    let session: Session
    let user: User
    /// The generation of the current refresh token.
    let generation: Int64
    /// When the current generation was issued (the previous one retired) and when the
    /// one before it was: enough for the reuse grace, whatever the number of rotations.
    let rotatedAt: Int64
    let previousRotatedAt: Int64

    /// When `generation` was retired, if it is one of the two the session remembers.
    func retirement(of generation: Int64) -> Int64? {
        switch self.generation - generation {
        case 1: rotatedAt
        case 2: previousRotatedAt
        default: nil
        }
    }
}
