import Foundation
import Testing
import TestSupport

extension Accounts {
    /// `POST /v1/auth/logout` and `/logout-all`: revocation that takes effect at once, not
    /// when the access token expires.
    @Suite struct Logout {
        @Test func logoutRevokesThisSessionAtOnceAndNoOther() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let laptop = try server.signUp("ada@example.com", "ada")
            let phone = try server.logIn("ada@example.com")

            let response = try server.call("POST", "/v1/auth/logout", token: laptop.accessToken)
            #expect(response.status == 204, "\(response)")
            expectProblem(try server.me(laptop.accessToken), 401, "SESSION_REVOKED")
            expectProblem(try server.refresh(laptop.refreshToken), 401, "INVALID_REFRESH_TOKEN")
            expectProblem(try server.call("POST", "/v1/auth/logout", token: laptop.accessToken), 401, "SESSION_REVOKED", "logging out twice")
            #expect(try server.me(phone.accessToken).status == 200)
            expectTokenPair(try server.refresh(phone.refreshToken), 200)
        }

        @Test func logoutAllRevokesEverySessionOfTheUserAtOnce() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let laptop = try server.signUp("ada@example.com", "ada")
            let phone = try server.logIn("ada@example.com")
            let tablet = try server.logIn("ada@example.com")
            let bob = try server.signUp("bob@example.com", "bob")

            let response = try server.call("POST", "/v1/auth/logout-all", token: phone.accessToken)
            #expect(response.status == 204, "\(response)")
            for (name, session) in [("laptop", laptop), ("phone", phone), ("tablet", tablet)] {
                expectProblem(try server.me(session.accessToken), 401, "SESSION_REVOKED", name)
                expectProblem(try server.refresh(session.refreshToken), 401, "INVALID_REFRESH_TOKEN", name)
            }
            #expect(try server.me(bob.accessToken).status == 200, "another user is untouched")
            let again = try server.logIn("ada@example.com")
            #expect(try server.me(again.accessToken).status == 200, "the user can sign in again")
            let sessions = try server.call("GET", "/v1/auth/sessions", token: again.accessToken)
            #expect((sessions["sessions"] as? [[String: Any]])?.map { $0["id"] as? String } == [again.sessionID], "no revoked session is listed: \(sessions)")
        }

        @Test func logoutNeedsAValidToken() throws {
            let server = try AccountServer()
            defer { server.stop() }
            try server.run([
                Scenario("logout without a token", "POST", "/v1/auth/logout", status: 401, code: "UNAUTHENTICATED"),
                Scenario("logout-all without a token", "POST", "/v1/auth/logout-all", status: 401, code: "UNAUTHENTICATED"),
                Scenario("logout with a broken token", "POST", "/v1/auth/logout", token: "a.b.c", status: 401, code: "INVALID_TOKEN"),
                Scenario("logout-all with a broken token", "POST", "/v1/auth/logout-all", token: "a.b.c", status: 401, code: "INVALID_TOKEN"),
                Scenario("GET logout", "GET", "/v1/auth/logout", status: 405, code: "METHOD_NOT_ALLOWED"),
            ])
        }
    }
}
