import Foundation
import LatchkeyClient
import Testing
import TestSupport

/// Tokens renewed on their own: once for many calls, and signing out only when the server
/// ended the session, never because the network failed.
@Suite(.timeLimit(.minutes(1))) struct RefreshTests {
    let password = ClientTestServer.password

    /// Calls `reloadUser()` `count` times at once; every one must succeed.
    static func reloadConcurrently(_ client: Latchkey, _ count: Int) async throws -> [User] {
        try await withThrowingTaskGroup(of: User.self) { group in
            for _ in 0..<count { group.addTask { try await client.reloadUser() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// A device whose clock is behind the server's still takes its expired token for a
    /// good one: all its calls meet 401 TOKEN_EXPIRED together, and one refresh serves them.
    @Test func manyCallsRefusedAsExpiredShareOneRefresh() async throws {
        // Lifetimes of a few seconds: long enough that a refreshed token is not due again
        // while the calls run, even on a loaded machine.
        let server = try ClientTestServer(["--access-token-ttl", "4"])
        defer { server.stop() }
        let store = InMemoryTokenStore()
        let ada = try await server.client(store: store).signUp(email: "ada@example.com", password: password, displayName: "ada")
        var session = try #require(await store.load())
        try await Task.sleep(for: .seconds(5.3))  // past `exp` (whole seconds) and the server's second of leeway
        session.refreshAfter = .now.addingTimeInterval(3600)
        session.accessTokenExpiresAt = .now.addingTimeInterval(3600)
        let skewed = server.client(store: InMemoryTokenStore(session))

        let (refreshesBefore, expiredBefore) = (try server.refreshCount(), try server.requestCount(["route": "/v1/users/me", "status": "401"]))
        let users = try await Self.reloadConcurrently(skewed, 20)
        #expect(users.count == 20 && users.allSatisfy { $0.id == ada.id })
        let expired = try server.requestCount(["route": "/v1/users/me", "status": "401"]) - expiredBefore
        #expect(expired >= 2, "calls met the expired token together: \(expired)")
        #expect(try server.refreshCount() - refreshesBefore == 1, "one refresh for all of them")
        #expect(await skewed.currentUser == ada)
    }

    /// The usual case: the client knows the token is due and refreshes before sending, once
    /// for every call that wants a token at that moment, and no call is refused.
    @Test func manyCallsDueForRefreshShareOneRefreshAhead() async throws {
        let server = try ClientTestServer(["--access-token-ttl", "6"])
        defer { server.stop() }
        let ada = server.client()
        try await ada.signUp(email: "ada@example.com", password: password, displayName: "ada")
        try await Task.sleep(for: .seconds(3.3))  // due (half its lifetime has passed), not expired
        let (refreshesBefore, refusedBefore) = (try server.refreshCount(), try server.requestCount(["route": "/v1/users/me", "status": "401"]))
        _ = try await Self.reloadConcurrently(ada, 20)
        #expect(try server.refreshCount() - refreshesBefore == 1)
        #expect(try server.requestCount(["route": "/v1/users/me", "status": "401"]) == refusedBefore, "refreshed before sending")
    }

    /// Someone else refreshed with a copy of the token; after the grace, the owner's
    /// refresh reads as reuse: the server ends the session and the client signs out cleanly.
    @Test func aReusedRefreshTokenSignsOut() async throws {
        let server = try ClientTestServer(["--refresh-reuse-grace", "1"])
        defer { server.stop() }
        let store = InMemoryTokenStore()
        try await server.client(store: store).signUp(email: "ada@example.com", password: password, displayName: "ada")
        let copied = try #require(await store.load())
        let thief = try server.call("POST", "/v1/auth/refresh", json: ["refreshToken": copied.refreshToken])
        let thiefToken = try #require(thief["refreshToken"] as? String, "\(thief)")
        try await Task.sleep(for: .seconds(2.2))

        let ownerStore = InMemoryTokenStore.due(copied)
        let owner = server.client(store: ownerStore)
        var states = owner.authState.makeAsyncIterator()
        #expect(await states.next()??.email == "ada@example.com")
        await expectSessionEnded(.refreshTokenReused) { _ = try await owner.reloadUser() }
        #expect(await states.next() == .some(nil), "the auth state says signed out")
        #expect(await ownerStore.load() == nil, "the store is cleared")
        await expectNotSignedIn { _ = try await owner.sessions() }
        #expect(try server.call("POST", "/v1/auth/refresh", json: ["refreshToken": thiefToken]).code == "INVALID_REFRESH_TOKEN", "the copy is dead too")
    }

    /// With the server gone, a due refresh fails for want of an answer: the user stays
    /// signed in, tokens and all, and the same refresh token works once the server is back.
    @Test func aNetworkFailureNeverSignsOut() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let directory = LatchkeyProcess.makeTemporaryDirectory()
        let file = FileTokenStore(url: URL(fileURLWithPath: directory + "/session.json"))
        let ada = try await server.client(store: file).signUp(email: "ada@example.com", password: password, displayName: "ada")
        var session = try #require(try await file.load())
        (session.refreshAfter, session.accessTokenExpiresAt) = (.distantPast, .distantPast)
        try await file.save(session)
        let device = server.client(store: file)

        server.stop()
        await expectNetworkFailure { _ = try await device.reloadUser() }
        #expect(await device.currentUser == ada, "still signed in")
        #expect(try await file.load()?.refreshToken == session.refreshToken, "the tokens are kept")

        try server.start()
        #expect(try await device.reloadUser() == ada)
        #expect(try await file.load()?.refreshToken != session.refreshToken, "refreshed once the server was back")
    }

    /// At launch the user is there at once, from the token store, with no server at all.
    @Test func theSessionIsRestoredAtLaunchWithoutTheNetwork() async throws {
        let server = try ClientTestServer()
        let path = LatchkeyProcess.makeTemporaryDirectory() + "/app/session.json"
        let ada = try await server.client(store: FileTokenStore(url: URL(fileURLWithPath: path))).signUp(
            email: "ada@example.com", password: password, displayName: "ada")
        server.stop()

        let relaunched = server.client(store: FileTokenStore(url: URL(fileURLWithPath: path)))
        var states = relaunched.authState.makeAsyncIterator()
        #expect(await states.next() == .some(ada))
        #expect(await relaunched.currentUser == ada)
    }
}