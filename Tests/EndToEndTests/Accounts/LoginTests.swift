import Foundation
import Testing
import TestSupport

extension Accounts {
    /// `POST /v1/auth/login`: a TokenPair for a new session; one answer for an unknown
    /// address and a wrong password, in about the same time; disabled accounts; hashes
    /// upgraded to the configured iteration count.
    @Suite struct Login {
        @Test func loginAnswers200WithATokenPairForANewSession() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let response = try server.call("POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": ada.password])
            expectTokenPair(response, 200, email: "ada@example.com", displayName: "ada")
            #expect(!response.text.contains(ada.password))
            let second = try Account(response, password: ada.password)
            #expect(second.id == ada.id)
            #expect(second.sessionID != nil && second.sessionID != ada.sessionID, "login opens a session of its own")
            #expect(second.refreshToken != ada.refreshToken)
            #expect(try server.me(second.accessToken).status == 200)
            #expect(try server.me(ada.accessToken).status == 200, "the signup session is untouched")
        }

        @Test func loginAddressIsTrimmedAndMatchedWithoutRegardToCase() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("Ada@Example.com", "ada")
            for spelling in ["ada@example.com", "ADA@EXAMPLE.COM", "  Ada@Example.com  "] {
                let response = try server.call("POST", "/v1/auth/login", json: ["email": spelling, "password": ada.password])
                expectTokenPair(response, 200)
                #expect((response["user"] as? [String: Any])?["id"] as? String == ada.id, "\(spelling)")
            }
        }

        @Test func everyLoginRowAnswersItsCode() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let path = "/v1/auth/login"
            try server.run([
                Scenario("right password", "POST", path, json: ["email": "ada@example.com", "password": ada.password], status: 200, excludes: [ada.password]),
                Scenario("wrong password", "POST", path, json: ["email": "ada@example.com", "password": "not-the-password-1"],
                         status: 401, code: "INVALID_LOGIN_CREDENTIALS", excludes: ["not-the-password-1"]),
                Scenario("password in another case", "POST", path, json: ["email": "ada@example.com", "password": ada.password.uppercased()],
                         status: 401, code: "INVALID_LOGIN_CREDENTIALS"),
                Scenario("unknown address", "POST", path, json: ["email": "nobody@example.com", "password": ada.password],
                         status: 401, code: "INVALID_LOGIN_CREDENTIALS", excludes: [ada.password]),
                Scenario("empty password", "POST", path, json: ["email": "ada@example.com", "password": ""], status: 401, code: "INVALID_LOGIN_CREDENTIALS"),
                Scenario("email missing", "POST", path, json: ["password": ada.password], status: 400, code: "INVALID_ARGUMENT", field: "email"),
                Scenario("password missing", "POST", path, json: ["email": "ada@example.com"], status: 400, code: "INVALID_ARGUMENT", field: "password"),
                Scenario("password of the wrong type", "POST", path, json: ["email": "ada@example.com", "password": 12345678],
                         status: 400, code: "INVALID_ARGUMENT", field: "password"),
                Scenario("not JSON", "POST", path, raw: ("{email", "application/json"), status: 400, code: "MALFORMED_JSON"),
                Scenario("form encoding", "POST", path, raw: ("email=ada%40example.com", "application/x-www-form-urlencoded"),
                         status: 415, code: "UNSUPPORTED_MEDIA_TYPE", contains: ["application/json"]),
            ])
        }

        @Test func unknownAddressAndWrongPasswordGetTheSameAnswer() throws {
            let server = try AccountServer()
            defer { server.stop() }
            try server.signUp("ada@example.com", "ada")
            let sameID = ["X-Request-Id": "login-probe"]
            let wrong = try server.call("POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": "wrong-password-123"], headers: sameID)
            let unknown = try server.call("POST", "/v1/auth/login", json: ["email": "nobody@example.com", "password": "wrong-password-123"], headers: sameID)
            expectProblem(wrong, 401, "INVALID_LOGIN_CREDENTIALS")
            expectProblem(unknown, 401, "INVALID_LOGIN_CREDENTIALS")
            // The same fields with the same values; the order of keys in the text is no signal.
            #expect(wrong.json.map(NSDictionary.init) == unknown.json.map(NSDictionary.init), "the bodies are identical:\n\(wrong.text)\n\(unknown.text)")
            #expect(wrong.text.utf8.count == unknown.text.utf8.count)
            for header in ["Content-Type", "WWW-Authenticate", "Cache-Control", "Retry-After"] {
                #expect(wrong.header(header) == unknown.header(header), "\(header) is the same")
            }
        }

        /// With a real iteration count the hash dominates: an unknown address must cost a
        /// hash too (a dummy one), or timing tells which addresses are registered.
        @Test(.timeLimit(.minutes(3)))
        func unknownAddressAndWrongPasswordTakeAboutTheSameTime() throws {
            let server = try AccountServer(iterations: 200_000)
            defer { server.stop() }
            try server.signUp("ada@example.com", "ada")
            func timed(_ email: String) throws -> Double {
                let started = Date()
                let response = try server.call("POST", "/v1/auth/login", json: ["email": email, "password": "wrong-password-123"])
                #expect(response.status == 401)
                return Date().timeIntervalSince(started)
            }
            _ = try timed("ada@example.com")
            _ = try timed("nobody@example.com")
            var wrong: [Double] = []
            var unknown: [Double] = []
            for round in 0..<5 {
                wrong.append(try timed("ada@example.com"))
                unknown.append(try timed("nobody\(round)@example.com"))
            }
            // The fastest of each: load from elsewhere only ever adds time (a full run at load
            // 9 once put a pause into the median), while a missing dummy hash would leave the
            // unknown address's fastest far below the hash's cost.
            let (fastestWrong, fastestUnknown) = (wrong.min()!, unknown.min()!)
            let ratio = min(fastestWrong, fastestUnknown) / max(fastestWrong, fastestUnknown)
            #expect(ratio >= 0.5, "wrong password \(wrong) s, unknown address \(unknown) s")
        }

        @Test func aDisabledAccountIsRefusedWith403() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            try StoredRows.write(server, "UPDATE users SET disabled = 1 WHERE id = ?", ada.id)
            let response = try server.call("POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": ada.password])
            expectProblem(response, 403, "USER_DISABLED")
            expectNoSecrets(response, also: [ada.password])
        }

        @Test func loginSetsPresenceOnline() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            try StoredRows.write(server, "UPDATE presence SET status = 'offline' WHERE user_id = ?", ada.id)
            #expect(try StoredRows(server).presenceStatus(ada.id) == "offline")
            try server.logIn("ada@example.com")
            #expect(try StoredRows(server).presenceStatus(ada.id) == "online")
        }

        @Test func storedHashesAreUpgradedAtLoginWhenTheIterationCountRises() throws {
            let first = try AccountServer(iterations: 1000)
            defer { first.stop() }
            try first.signUp("ada@example.com", "ada")
            try first.signUp("bob@example.com", "bob")
            let hash = try StoredRows(first).passwordHash(email: "ada@example.com")
            #expect(StoredRows.iterations(ofHash: hash) == 1000, "a PHC string with its count: \(hash ?? "none")")

            let second = try first.restarted(iterations: 2000)
            defer { second.stop() }
            // A wrong password proves nothing and must change nothing.
            expectProblem(try second.call("POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": "wrong-password-123"]),
                          401, "INVALID_LOGIN_CREDENTIALS")
            #expect(StoredRows.iterations(ofHash: try StoredRows(second).passwordHash(email: "ada@example.com")) == 1000)

            try second.logIn("ada@example.com")
            let upgraded = try StoredRows(second).passwordHash(email: "ada@example.com")
            #expect(StoredRows.iterations(ofHash: upgraded) == 2000, "re-hashed at login: \(upgraded ?? "none")")
            #expect(upgraded != hash)
            #expect(StoredRows.iterations(ofHash: try StoredRows(second).passwordHash(email: "bob@example.com")) == 1000,
                    "an account that did not log in keeps its hash")
            try second.logIn("ada@example.com")
            expectProblem(try second.call("POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": "wrong-password-123"]),
                          401, "INVALID_LOGIN_CREDENTIALS")
        }
    }
}
