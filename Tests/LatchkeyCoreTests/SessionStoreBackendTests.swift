import Foundation
@testable import LatchkeyCore
import Testing

/// Refresh rotation on both databases.
@Suite struct SessionStoreBackendTests {
    /// No grace at all (a rotated token is reused the moment it comes back), so the test
    /// needs no clock: the first reuse ends the session, and its current token with it.
    @Test(arguments: StoreBackend.allCases)
    func aRotatedTokenComingBackEndsTheSession(_ backend: StoreBackend) async throws {
        let scratch = try ScratchDatabase(backend)
        defer { scratch.close() }
        let core = try scratch.services(refreshReuseGrace: -1)
        let first = try await core.accounts.signup(
            SignupForm(email: "ada@example.com", password: "lighthouse-Quokka-42", displayName: "Ada.L", confirmPassword: nil), userAgent: nil
        )
        let second = try await core.sessions.refresh(first.refreshToken)
        #expect(second.refreshToken != first.refreshToken)
        let third = try await core.sessions.refresh(second.refreshToken)
        await #expect(throws: SessionError.refreshTokenReused) { try await core.sessions.refresh(first.refreshToken) }
        await #expect(throws: SessionError.invalidRefreshToken) { try await core.sessions.refresh(third.refreshToken) }
        #expect(throws: AccessError.sessionRevoked) { try core.authenticate(authorization: "Bearer \(third.accessToken)") }
    }

    /// Two tasks of one app, or two devices restored from one backup, refreshing at once
    /// through two instances: every one gets the session's next token, and the session
    /// rotated once (on PostgreSQL, one of a batch's rotations; the rest retries within the
    /// grace, decided again by the writer).
    @Test(arguments: StoreBackend.allCases)
    func refreshesOfOneTokenAtOnceAllGetTheNextTokenAndTheSessionRotatesOnce(_ backend: StoreBackend) async throws {
        let scratch = try ScratchDatabase(backend)
        defer { scratch.close() }
        let (a, b) = (try scratch.services(), try scratch.services())
        let first = try await a.accounts.signup(
            SignupForm(email: "ada@example.com", password: "lighthouse-Quokka-42", displayName: "Ada.L", confirmPassword: nil), userAgent: nil
        )
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<24 {
                let core = index.isMultiple(of: 2) ? a : b
                group.addTask { try await core.sessions.refresh(first.refreshToken).refreshToken }
            }
            var tokens: Set<String> = []
            for try await token in group { tokens.insert(token) }
            return tokens
        }
        #expect(tokens.count == 1, "one next token for every refresh")
        let next = try #require(tokens.first)
        #expect(next != first.refreshToken)
        let after = try await b.sessions.refresh(next)
        #expect(after.refreshToken != next, "the next token is the current one: it rotates")
    }
}
