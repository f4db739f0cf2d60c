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
}
