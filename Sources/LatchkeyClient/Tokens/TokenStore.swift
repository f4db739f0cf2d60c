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
    /// Forgets the session (sign-out, or the server ended the session), but not the device token.
    func clear() async throws
    /// The server's device token for this device: it outlives sign-out, so a later login
    /// here is counted against this device alone and never locked out by a stranger's
    /// guesses at the account. Stores that keep nothing return nil (the default).
    func loadDeviceToken() async throws -> String?
    /// Keeps the newest device token (default: keeps nothing).
    func saveDeviceToken(_ token: String) async throws
}

extension TokenStore {
    public func loadDeviceToken() async throws -> String? { nil }
    public func saveDeviceToken(_ token: String) async throws {}
}

/// Keeps the session in memory only: every launch starts signed out.
public actor InMemoryTokenStore: TokenStore {
    private var session: StoredSession?

    public init(_ session: StoredSession? = nil) {
        self.session = session
    }

    private var deviceToken: String?

    public func load() -> StoredSession? { session }
    public func save(_ session: StoredSession) { self.session = session }
    public func clear() { session = nil }
    public func loadDeviceToken() -> String? { deviceToken }
    public func saveDeviceToken(_ token: String) { deviceToken = token }
}
