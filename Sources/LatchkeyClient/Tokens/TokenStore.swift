import Foundation

/// Where a `Latchkey` keeps the signed-in session between launches: `InMemoryTokenStore`
/// (tests, previews), `FileTokenStore` (servers, command-line tools) or
/// `KeychainTokenStore` (iOS and macOS apps); or a store of your own.
///
/// The client calls one method at a time, in order, and never clears the store because a
/// read failed: a store that cannot be read right now (a keychain before the first unlock)
/// should throw, and the client asks again on its next call rather than signing out.
public protocol TokenStore: Sendable {
    /// The saved session, or nil when nobody is signed in.
    func load() async throws -> StoredSession?
    /// Replaces the saved session (after a sign-in, a refresh, a profile change).
    func save(_ session: StoredSession) async throws
    /// Forgets the session (sign-out, or the server ended the session).
    func clear() async throws
}

/// Keeps the session in memory only: every launch starts signed out.
public actor InMemoryTokenStore: TokenStore {
    private var session: StoredSession?

    public init(_ session: StoredSession? = nil) {
        self.session = session
    }

    public func load() -> StoredSession? { session }
    public func save(_ session: StoredSession) { self.session = session }
    public func clear() { session = nil }
}
