import Foundation
import Testing
import TestSupport

extension Accounts {
    /// `POST /v1/auth/password`: a TokenPair for a new session, every other session revoked
    /// at once, the old password dead.
    @Suite struct PasswordChange {
        static let newPassword = "Marmalade-Orbit-77"

        @Test func changingThePasswordAnswersANewSessionAndRevokesEveryOther() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let laptop = try server.signUp("ada@example.com", "ada")
            let phone = try server.logIn("ada@example.com")

            let response = try server.call("POST", "/v1/auth/password", json: ["currentPassword": laptop.password, "newPassword": Self.newPassword],
                                           token: laptop.accessToken)
            expectTokenPair(response, 200, email: "ada@example.com", displayName: "ada")
            expectNoSecrets(response, also: [laptop.password, Self.newPassword])
            let fresh = try Account(response, password: Self.newPassword)
            #expect(fresh.sessionID != nil && fresh.sessionID != laptop.sessionID && fresh.sessionID != phone.sessionID, "a new session")

            for (name, old) in [("the caller's old session", laptop), ("another session", phone)] {
                expectProblem(try server.me(old.accessToken), 401, "SESSION_REVOKED", name)
                expectProblem(try server.refresh(old.refreshToken), 401, "INVALID_REFRESH_TOKEN", name)
            }
            #expect(try server.me(fresh.accessToken).status == 200)
            let sessions = try server.call("GET", "/v1/auth/sessions", token: fresh.accessToken)
            #expect((sessions["sessions"] as? [[String: Any]])?.map { $0["id"] as? String } == [fresh.sessionID], "only the new session is left: \(sessions)")
            expectTokenPair(try server.refresh(fresh.refreshToken), 200)

            expectProblem(try server.call("POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": laptop.password]),
                          401, "INVALID_LOGIN_CREDENTIALS", "the old password")
            try server.logIn("ada@example.com", password: Self.newPassword)
        }

        @Test func everyPasswordChangeRowAnswersItsCode() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let path = "/v1/auth/password"
            let token = ada.accessToken
            try server.run([
                Scenario("wrong current password", "POST", path, token: token, json: ["currentPassword": "not-my-password-1", "newPassword": Self.newPassword],
                         status: 401, code: "INVALID_LOGIN_CREDENTIALS", excludes: ["not-my-password-1", Self.newPassword]),
                Scenario("new password too short", "POST", path, token: token, json: ["currentPassword": ada.password, "newPassword": "Sh0rt!"],
                         status: 400, code: "WEAK_PASSWORD", field: "newPassword", excludes: [ada.password, "Sh0rt!"]),
                Scenario("new password too long", "POST", path, token: token,
                         json: ["currentPassword": ada.password, "newPassword": String(repeating: "Lo9!", count: 33)],
                         status: 400, code: "WEAK_PASSWORD", field: "newPassword"),
                Scenario("new password common", "POST", path, token: token, json: ["currentPassword": ada.password, "newPassword": "Password"],
                         status: 400, code: "WEAK_PASSWORD", field: "newPassword"),
                Scenario("newPassword missing", "POST", path, token: token, json: ["currentPassword": ada.password],
                         status: 400, code: "INVALID_ARGUMENT", field: "newPassword"),
                Scenario("currentPassword missing", "POST", path, token: token, json: ["newPassword": Self.newPassword],
                         status: 400, code: "INVALID_ARGUMENT", field: "currentPassword"),
                Scenario("not JSON", "POST", path, token: token, raw: ("{", "application/json"), status: 400, code: "MALFORMED_JSON"),
                Scenario("no token", "POST", path, json: ["currentPassword": ada.password, "newPassword": Self.newPassword],
                         status: 401, code: "UNAUTHENTICATED"),
            ])
            #expect(try server.me(ada.accessToken).status == 200, "failed changes revoke nothing")
            try server.logIn("ada@example.com")
            expectProblem(try server.call("POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": Self.newPassword]),
                          401, "INVALID_LOGIN_CREDENTIALS", "no failed change took effect")
        }
    }
}
