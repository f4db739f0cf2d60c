import Foundation
import Testing
import TestSupport

extension Accounts {
    /// A restart keeps everything: accounts, claims, profiles, live sessions (their access
    /// and refresh tokens), and revocations.
    @Suite struct Restart {
        @Test func aRestartKeepsAccountsClaimsSessionsAndRevocations() throws {
            let first = try AccountServer()
            let ada = try first.signUp("ada@example.com", "Ada.L")
            let phone = try first.logIn("ada@example.com")
            let gone = try first.logIn("ada@example.com")
            let bob = try first.signUp("bob@example.com", "bob")
            _ = try first.call("PATCH", "/v1/users/me", json: ["displayName": "Bob.Renamed", "photoURL": "https://cdn.example.com/bob.png"], token: bob.accessToken)
            #expect(try first.call("POST", "/v1/auth/logout", token: gone.accessToken).status == 204)

            let server = try first.restarted()
            defer { server.stop() }
            let me = try server.me(ada.accessToken)
            #expect(me.status == 200, "an access token from before the restart still works: \(me)")
            #expect(me["displayName"] as? String == "Ada.L")
            let renewed = try server.refresh(phone.refreshToken)
            expectTokenPair(renewed, 200, email: "ada@example.com", displayName: "Ada.L")
            #expect(try Account(renewed, password: phone.password).sessionID == phone.sessionID)
            expectProblem(try server.me(gone.accessToken), 401, "SESSION_REVOKED", "a session logged out before the restart")
            expectProblem(try server.refresh(gone.refreshToken), 401, "INVALID_REFRESH_TOKEN", "a session logged out before the restart")

            let sessions = try server.call("GET", "/v1/auth/sessions", token: ada.accessToken)
            #expect((sessions["sessions"] as? [Any])?.count == 2, "the two live sessions remain: \(sessions)")

            let profile = try server.call("GET", "/v1/users/\(bob.id)", token: ada.accessToken)
            #expect(profile["displayName"] as? String == "Bob.Renamed" && profile["photoURL"] as? String == "https://cdn.example.com/bob.png", "\(profile)")
            #expect(try server.availability("ada.l")["reason"] as? String == "TAKEN")
            #expect(try server.availability("bob.renamed")["reason"] as? String == "TAKEN")
            #expect(try server.availability("bob")["available"] as? Bool == true, "the released name stays released")
            expectProblem(try server.call("POST", "/v1/auth/signup", json: ["email": "ADA@example.com", "password": AccountServer.password, "displayName": "someone"]),
                          409, "EMAIL_EXISTS", field: "email")
            expectProblem(try server.call("POST", "/v1/auth/signup", json: ["email": "eve@example.com", "password": AccountServer.password, "displayName": "ADA.L"]),
                          409, "DISPLAY_NAME_TAKEN", field: "displayName")
            try server.logIn("ada@example.com")
            try server.logIn("bob@example.com")
        }

        @Test(.timeLimit(.minutes(2)))
        func refreshReuseIsStillDetectedAfterARestart() async throws {
            let first = try AccountServer(["--refresh-reuse-grace", "1"])
            let ada = try first.signUp("ada@example.com", "ada")
            let rotated = try Account(try first.refresh(ada.refreshToken), password: ada.password)
            let server = try first.restarted(["--refresh-reuse-grace", "1"])
            defer { server.stop() }
            try await Task.sleep(for: .seconds(3))
            expectProblem(try server.refresh(ada.refreshToken), 401, "REFRESH_TOKEN_REUSED")
            expectProblem(try server.me(rotated.accessToken), 401, "SESSION_REVOKED")
        }
    }
}
