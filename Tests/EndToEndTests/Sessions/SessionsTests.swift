import Foundation
import Testing
import TestSupport

extension Accounts {
    /// `GET /v1/auth/sessions` and `DELETE /v1/auth/sessions/{id}`: a user sees and ends
    /// their own sessions, and only theirs; an ended session's tokens stop at once.
    @Suite struct Sessions {
        static func list(_ server: AccountServer, _ account: Account) throws -> [[String: Any]] {
            let response = try server.call("GET", "/v1/auth/sessions", token: account.accessToken)
            expectPrivateJSON(response, 200)
            guard let sessions = response["sessions"] as? [[String: Any]] else { throw TestError("no sessions list: \(response)") }
            return sessions
        }

        @Test func theListShowsEverySessionOfTheCallerAndMarksTheCurrentOne() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let laptop = try server.signUp("ada@example.com", "ada", userAgent: "Laptop/2.0")
            let phone = try server.logIn("ada@example.com", userAgent: "Phone/1.0")
            let other = try server.signUp("bob@example.com", "bob", userAgent: "Bob/1.0")

            let response = try server.call("GET", "/v1/auth/sessions", token: phone.accessToken)
            expectPrivateJSON(response, 200)
            expectNoSecrets(response, also: [laptop.refreshToken, phone.refreshToken, laptop.accessToken])
            let sessions = try Self.list(server, phone)
            #expect(sessions.count == 2, "Bob's session is not Ada's: \(sessions)")
            for session in sessions {
                #expect(Set(session.keys).isSuperset(of: ["id", "createdAt", "lastUsedAt", "userAgent", "current"]), "\(session)")
                #expect(isContractTime(session["createdAt"]) && isContractTime(session["lastUsedAt"]), "\(session)")
                #expect(session["current"] is Bool)
            }
            let byID = Dictionary(uniqueKeysWithValues: sessions.map { ($0["id"] as? String ?? "", $0) })
            #expect(byID[phone.sessionID ?? ""]?["current"] as? Bool == true)
            #expect(byID[phone.sessionID ?? ""]?["userAgent"] as? String == "Phone/1.0")
            #expect(byID[laptop.sessionID ?? ""]?["current"] as? Bool == false)
            #expect(byID[laptop.sessionID ?? ""]?["userAgent"] as? String == "Laptop/2.0")
            #expect(byID[other.sessionID ?? ""] == nil)

            let fromLaptop = try Self.list(server, laptop)
            #expect(fromLaptop.filter { $0["current"] as? Bool == true }.map { $0["id"] as? String } == [laptop.sessionID])
        }

        /// A session's id begins with the millisecond it was made (so the sessions' index
        /// grows at its end); the time it tells is the session's `createdAt`.
        @Test func aSessionsIdBeginsWithTheTimeItWasMade() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let session = try #require(try Self.list(server, ada).first)
            let id = try #require(session["id"] as? String)
            let created = try #require(ISO8601DateFormatter().date(from: session["createdAt"] as? String ?? ""))
            let stamped = try #require(UInt64(id.prefix(12), radix: 16))
            #expect(abs(Double(stamped) / 1000 - created.timeIntervalSince1970) < 1.5, "\(id) made at \(created)")
        }

        @Test func deletingASessionRevokesItsTokensAtOnce() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let laptop = try server.signUp("ada@example.com", "ada")
            let phone = try server.logIn("ada@example.com")
            let sessionID = try #require(phone.sessionID)

            let response = try server.call("DELETE", "/v1/auth/sessions/\(sessionID)", token: laptop.accessToken)
            #expect(response.status == 204, "\(response)")
            expectProblem(try server.me(phone.accessToken), 401, "SESSION_REVOKED")
            expectProblem(try server.refresh(phone.refreshToken), 401, "INVALID_REFRESH_TOKEN")
            #expect(try server.me(laptop.accessToken).status == 200)
            #expect(try Self.list(server, laptop).map { $0["id"] as? String } == [laptop.sessionID])
        }

        @Test func deletingTheCurrentSessionEndsIt() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let response = try server.call("DELETE", "/v1/auth/sessions/\(try #require(ada.sessionID))", token: ada.accessToken)
            #expect(response.status == 204, "\(response)")
            expectProblem(try server.me(ada.accessToken), 401, "SESSION_REVOKED")
        }

        @Test func sessionsThatAreNotTheCallersAreNotFound() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let bob = try server.signUp("bob@example.com", "bob")
            let bobSession = try #require(bob.sessionID)
            try server.run([
                Scenario("another user's session", "DELETE", "/v1/auth/sessions/\(bobSession)", token: ada.accessToken, status: 404, code: "NOT_FOUND"),
                Scenario("an unknown session", "DELETE", "/v1/auth/sessions/0123456789abcdef0123456789abcdef", token: ada.accessToken,
                         status: 404, code: "NOT_FOUND"),
                Scenario("no token on the list", "GET", "/v1/auth/sessions", status: 401, code: "UNAUTHENTICATED"),
                Scenario("no token on delete", "DELETE", "/v1/auth/sessions/\(bobSession)", status: 401, code: "UNAUTHENTICATED"),
                Scenario("a token that is not a JWT", "GET", "/v1/auth/sessions", token: "not-a-token", status: 401, code: "INVALID_TOKEN"),
            ])
            #expect(try server.me(bob.accessToken).status == 200, "Bob's session survived Ada's attempt")
            expectTokenPair(try server.refresh(bob.refreshToken), 200)
        }
    }
}
