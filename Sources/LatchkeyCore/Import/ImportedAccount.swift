/// One account ready to be written: everything about it that does not depend on what the
/// database holds is decided before the write (and its transaction) begins.
struct ImportedAccount: Sendable {
    /// A name to claim if nobody holds it yet, or why the account gets none.
    enum DisplayName: Sendable {
        case claim(String)
        case none(ImportNamelessReason)
    }

    let id: String
    let email: ValidEmail
    let emailVerified: Bool
    let disabled: Bool
    let createdAt: Int64
    /// `$firebase-scrypt$set=…`, or `StoredPassword.noPassword`.
    let passwordHash: String
    let displayName: DisplayName
    let photoURL: String?
    /// From the Realtime Database export. Without it a new account is offline since its
    /// creation, and a refreshed one keeps what it has.
    let presence: (status: PresenceStatus, lastSeen: Int64)?
}

/// What became of one account in the write.
enum ImportOutcome: Sendable {
    /// Written new, or refreshed; `nameless` says why it has no display name.
    case imported(nameless: ImportNamelessReason?)
    case updated(nameless: ImportNamelessReason?)
    case skipped(ImportSkipReason)
}
