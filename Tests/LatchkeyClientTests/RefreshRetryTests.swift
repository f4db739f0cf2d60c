import Foundation
import LatchkeyClient
import Testing
import TestSupport

/// Refreshes retried safely: within the server's reuse grace the same refresh token answers
/// the same next token, so an answer that never arrived costs nothing.
@Suite(.timeLimit(.minutes(1))) struct RefreshRetryTests {
    let password = ClientTestServer.password

    /// The first refresh reached the server, which rotated the token, but its answer was
    /// lost. The client refreshes again with the token it still has, within the server's
    /// reuse grace, gets the same next token, and stays signed in.
    @Test func aRefreshWhoseAnswerWasLostIsRetriedWithinTheGrace() async throws {
        let server = try ClientTestServer()  // refreshReuseGrace: 10 s
        defer { server.stop() }
        let store = InMemoryTokenStore()
        let ada = try await server.client(store: store).signUp(email: "ada@example.com", password: password, displayName: "ada")
        let before = try #require(await store.load())
        let lost = try server.call("POST", "/v1/auth/refresh", json: ["refreshToken": before.refreshToken])
        let lostToken = try #require(lost["refreshToken"] as? String, "\(lost)")

        let retryingStore = InMemoryTokenStore.due(before)
        let device = server.client(store: retryingStore)
        var states = device.authState.makeAsyncIterator()
        #expect(await states.next() == .some(ada))
        #expect(try await device.reloadUser() == ada, "the retry succeeds")
        let after = try #require(await retryingStore.load())
        #expect(after.refreshToken == lostToken, "it carries the token the lost answer held")

        // That token is the session's current one: it refreshes normally later.
        let later = server.client(store: InMemoryTokenStore.due(after))
        #expect(try await later.reloadUser() == ada)
        #expect(await device.currentUser == ada, "nobody was signed out")
    }

    /// The same, lost for real: a proxy cuts the connection after the server rotated the
    /// token. The client's own retry, within the grace, gets the same next token.
    @Test func aRefreshAnswerLostOnTheWayBackIsRetriedByTheClient() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let proxy = try AnswerLosingProxy(upstreamPort: server.port)
        defer { proxy.stop() }
        let store = InMemoryTokenStore()
        let ada = try await server.client(store: store).signUp(email: "ada@example.com", password: password, displayName: "ada")
        let deviceStore = InMemoryTokenStore.due(try #require(await store.load()), expired: true)
        let device = server.client(store: deviceStore, through: URL(string: "http://127.0.0.1:\(proxy.port)"))
        var states = device.authState.makeAsyncIterator()
        #expect(await states.next() == .some(ada))

        proxy.loseNextRefreshAnswers(1)
        let refreshesBefore = try server.refreshCount()
        #expect(try await device.reloadUser() == ada)
        #expect(proxy.dropped == 1, "an answer was lost")
        #expect(try server.refreshCount() - refreshesBefore == 2, "the lost refresh and the client's retry")
        let kept = try #require(await deviceStore.load())
        #expect(try server.call("POST", "/v1/auth/refresh", json: ["refreshToken": kept.refreshToken]).status == 200, "the client holds the session's current token")
        #expect(await device.currentUser == ada, "nobody was signed out")
    }

    /// A refresh retries within its window: a server back within it never shows as a failure.
    @Test func aRefreshRetriedWithinItsWindowSucceedsWhenTheServerReturns() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let store = InMemoryTokenStore()
        let ada = try await server.client(store: store).signUp(email: "ada@example.com", password: password, displayName: "ada")
        var configuration = LatchkeyConfiguration()
        configuration.refreshRetryWindow = 8
        configuration.refreshBackoff = Backoff(initial: 0.1, maximum: 0.5)
        let device = Latchkey(baseURL: server.baseURL, tokenStore: InMemoryTokenStore.due(try #require(await store.load()), expired: true), configuration: configuration)

        server.stop()
        let reload = Task { try await device.reloadUser() }
        try await Task.sleep(for: .seconds(0.5))
        try server.start()
        #expect(try await reload.value == ada)
    }
}
