/// What stands in for the password of an account that has none (one a provider made)
/// before a change the owner cannot take back: deleting the account or a passkey. The
/// caller's session must have signed in at most `window` seconds ago, as Firebase's
/// `requires-recent-login`. The session's sign-in time, not its last refresh: a refresh
/// token copied off a device mints fresh access tokens, but of the same old sign-in.
enum RecentSignIn {
    static let window: Int64 = 300

    static func isRecent(signedInAt: Int64, now: Int64) -> Bool {
        now - signedInAt <= window
    }
}
