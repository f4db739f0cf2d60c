import Foundation
import LatchkeyClient
import Testing

/// Refusals reach the app typed: the contract's code, detail, field, every failed field,
/// `Retry-After` and the request id, so a form can show each field's message.
@Suite(.timeLimit(.minutes(1))) struct ErrorTests {
    @Test func aSignupFormGetsAMessageForEachField() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let client = server.client()
        let problem = try #require(await expectRefusal(400, .invalidEmail) {
            _ = try await client.signUp(email: "nope", password: "password", displayName: ".ada")
        })
        #expect(problem.field == "email")
        #expect(problem.fields == ["email", "password", "displayName"])
        #expect(problem.errors.map(\.code) == [.invalidEmail, .weakPassword, .displayNameInvalid])
        #expect(problem.errors.last?.reason == "LEADING_OR_TRAILING_PERIOD")
        for field in ["email", "password", "displayName"] {
            let detail = try #require(problem.detail(for: field))
            #expect(!detail.isEmpty)
        }
        #expect(problem.detail(for: "confirmPassword") == nil)
        #expect(problem.requestID?.isEmpty == false, "X-Request-Id ties a report to the server's log")
        #expect(LatchkeyError.server(problem).localizedDescription == problem.detail)

        let mismatch = await expectRefusal(400, .passwordsDoNotMatch) {
            _ = try await client.signUp(email: "ada@example.com", password: ClientTestServer.password, displayName: "ada", confirmPassword: "something else")
        }
        #expect(mismatch?.detail(for: "confirmPassword") != nil)
        #expect(await client.currentUser == nil, "a refused signup signs nobody in")
    }

    @Test func conflictsNameTheirField() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        try await server.client().signUp(email: "ada@example.com", password: ClientTestServer.password, displayName: "ada")
        let client = server.client()
        let email = await expectRefusal(409, .emailExists) {
            _ = try await client.signUp(email: "ADA@example.com", password: ClientTestServer.password, displayName: "other")
        }
        #expect(email?.field == "email")
        let name = await expectRefusal(409, .displayNameTaken) {
            _ = try await client.signUp(email: "grace@example.com", password: ClientTestServer.password, displayName: "Ada")
        }
        #expect(name?.field == "displayName" && name?.reason == "TAKEN")
        await expectRefusal(401, .invalidLoginCredentials) { _ = try await client.signIn(email: "ada@example.com", password: "wrong-Password-1") }
        await expectRefusal(401, .invalidLoginCredentials) { _ = try await client.signIn(email: "nobody@example.com", password: "wrong-Password-1") }
    }

    @Test func throttledCallsSayWhenToTryAgain() async throws {
        let server = try ClientTestServer(["--ip-rate-per-minute", "2"], rateLimits: true)
        defer { server.stop() }
        let client = server.client()
        var throttled: Problem?
        // A fixed window may roll over once in the middle: at most 2 × 2 + 1 checks pass.
        for _ in 0..<5 where throttled == nil {
            do {
                _ = try await client.displayNameAvailability("ada")
            } catch LatchkeyError.server(let problem) {
                throttled = problem
            }
        }
        let problem = try #require(throttled, "never throttled")
        #expect(problem.status == 429 && problem.code == .tooManyAttempts)
        let retryAfter = try #require(problem.retryAfter, "Retry-After reaches the app")
        #expect((0...60).contains(retryAfter))
        #expect(LatchkeyError.server(problem).retryAfter == retryAfter)
    }

    @Test func noServerIsANetworkFailureThatSignsNobodyOut() async throws {
        let server = try ClientTestServer()
        let store = InMemoryTokenStore()
        let client = server.client(store: store)
        try await client.signUp(email: "ada@example.com", password: ClientTestServer.password, displayName: "ada")
        server.stop()
        let failure = await expectNetworkFailure { _ = try await client.sessions() }
        #expect(failure?.urlErrorCode != nil, "URLSession's code is kept: \(String(describing: failure))")
        await expectNetworkFailure { _ = try await server.client().signIn(email: "ada@example.com", password: ClientTestServer.password) }
        #expect(await client.currentUser != nil)
        #expect(await store.load() != nil)
    }
}
