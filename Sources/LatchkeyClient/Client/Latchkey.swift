import Foundation

/// A client of one Latchkey server: sign-up and sign-in, a user kept signed in across
/// launches, tokens refreshed on their own, profiles, pictures and presence.
///
/// ```swift
/// let latchkey = Latchkey(baseURL: URL(string: "https://auth.example.com")!, tokenStore: KeychainTokenStore())
/// for await user in latchkey.authState { … }          // nil: show the login screen
/// try await latchkey.signUp(email: email, password: password, displayName: name)
/// ```
///
/// Make one per server and keep it for the app's lifetime: it holds the session, the
/// refresh in flight and the auth-state listeners. Every method may be called from any
/// task, concurrently.
public final class Latchkey: Sendable {
    /// The server's public URL (its `publicURL` setting); the API lives under `/v1`.
    public let baseURL: URL
    public let configuration: LatchkeyConfiguration
    let transport: HTTPTransport
    let state: SessionState

    /// Reads nothing yet: the session is restored from `tokenStore` on first use (without
    /// the network), so creating a client at launch is free.
    public init(baseURL: URL, tokenStore: any TokenStore = InMemoryTokenStore(), configuration: LatchkeyConfiguration = .init()) {
        self.baseURL = baseURL
        self.configuration = configuration
        transport = HTTPTransport(baseURL: baseURL, configuration: configuration)
        state = SessionState(store: tokenStore, transport: transport, configuration: configuration)
    }

    /// The signed-in user, then every change: a user after sign-in (or at once, restored
    /// from the token store at launch, without a network round trip), a newer copy after a
    /// profile change, nil after sign-out or when the server ended the session. Each access
    /// makes a new stream; it ends when its consumer stops iterating. The counterpart of
    /// Firebase's `addStateDidChangeListener`.
    public var authState: AsyncStream<User?> {
        let (stream, continuation) = AsyncStream.makeStream(of: User?.self, bufferingPolicy: .bufferingNewest(16))
        let (id, state) = (UUID(), self.state)
        let registration = Task { await state.addListener(id, continuation) }
        continuation.onTermination = { _ in
            Task {
                await registration.value
                await state.removeListener(id)
            }
        }
        return stream
    }

    /// The signed-in user as last seen (restored from the token store at launch), or nil;
    /// no network. `reloadUser()` asks the server.
    public var currentUser: User? {
        get async { await state.currentUser }
    }

    /// An access token for your own backend, which verifies it with the server's signing
    /// keys (HS256, `kid` header; claims in docs/api.md): the current one, refreshed first
    /// when it is due. Firebase's `getIDToken()`.
    public func accessToken() async throws -> String {
        try await state.credential().accessToken
    }
}
