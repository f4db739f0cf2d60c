import Foundation
import Testing
import TestSupport

extension Accounts {
    /// Throttling (configuration table: `ipRatePerMinute`, `loginMaxFailures`,
    /// `trustedProxies`): 429 `TOO_MANY_ATTEMPTS_TRY_LATER` with `Retry-After`, per client
    /// address on signup, login and name checks, per account on failed logins, and never
    /// for good.
    @Suite struct RateLimits {
        static let limit = 4

        /// Sends requests until one is throttled. A fixed window may roll over once in the
        /// middle, so up to twice the limit (plus one) may pass; the first `limit` must.
        @discardableResult
        static func expectThrottled(
            limit: Int = limit, _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ send: (Int) throws -> JSONResponse
        ) throws -> JSONResponse? {
            for attempt in 0..<(2 * limit + 1) {
                let response = try send(attempt)
                if response.status == 429 {
                    #expect(attempt >= limit, "\(what): throttled after only \(attempt) requests", sourceLocation: sourceLocation)
                    expectProblem(response, 429, "TOO_MANY_ATTEMPTS_TRY_LATER", what, sourceLocation: sourceLocation)
                    let retryAfter = Int(response.header("Retry-After") ?? "") ?? 0
                    #expect(retryAfter <= 60, "\(what): a per-minute limit clears within a minute, Retry-After \(retryAfter)", sourceLocation: sourceLocation)
                    return response
                }
            }
            Issue.record("\(what): never throttled after \(2 * limit + 1) requests", sourceLocation: sourceLocation)
            return nil
        }

        static func server(_ extra: [String] = []) throws -> AccountServer {
            try AccountServer(rateLimits: true, ["--ip-rate-per-minute", "\(limit)"] + extra)
        }

        @Test func signupIsThrottledPerClientAddress() throws {
            let server = try Self.server()
            defer { server.stop() }
            try Self.expectThrottled("signup") { attempt in
                let response = try server.call("POST", "/v1/auth/signup",
                                               json: ["email": "s\(attempt)@example.com", "password": AccountServer.password, "displayName": "signup_\(attempt)"])
                #expect([201, 429].contains(response.status), "\(response)")
                return response
            }
            #expect(try call(port: server.port, "GET", "/healthz").status == 200, "throttling touches only the limited routes")
        }

        @Test func loginIsThrottledPerClientAddressAcrossAccounts() throws {
            let server = try AccountServer(rateLimits: false)
            let accounts = try (0..<(2 * Self.limit + 1)).map { try server.signUp("l\($0)@example.com", "login_\($0)") }
            let limited = try server.restarted(rateLimits: true, ["--ip-rate-per-minute", "\(Self.limit)"])
            defer { limited.stop() }
            try Self.expectThrottled("login") { attempt in
                try limited.call("POST", "/v1/auth/login", json: ["email": accounts[attempt].email, "password": AccountServer.password])
            }
            #expect(try limited.me(accounts[0].accessToken).status == 200, "token-authenticated reads are not throttled")
        }

        @Test func displayNameChecksAreThrottledPerClientAddress() throws {
            let server = try Self.server()
            defer { server.stop() }
            try Self.expectThrottled("display-name check") { attempt in try server.availability("name_\(attempt)") }
        }

        @Test func failedLoginsLockTheAccountButNotTheOthers() throws {
            let server = try AccountServer(rateLimits: true, ["--ip-rate-per-minute", "1000", "--login-max-failures", "3"])
            defer { server.stop() }
            try server.signUp("ada@example.com", "ada")
            try server.signUp("bob@example.com", "bob")
            let wrong: [String: Any] = ["email": "ada@example.com", "password": "wrong-password-123"]
            for attempt in 1...3 {
                expectProblem(try server.call("POST", "/v1/auth/login", json: wrong), 401, "INVALID_LOGIN_CREDENTIALS", "failure \(attempt)")
            }
            let locked = try server.call("POST", "/v1/auth/login", json: wrong)
            expectProblem(locked, 429, "TOO_MANY_ATTEMPTS_TRY_LATER", "the fourth failure")
            let right = try server.call("POST", "/v1/auth/login", json: ["email": "ADA@example.com", "password": AccountServer.password])
            expectProblem(right, 429, "TOO_MANY_ATTEMPTS_TRY_LATER", "the right password while locked")
            expectNoSecrets(right, also: [AccountServer.password])
            #expect(right["accessToken"] == nil)
            let retryAfter = Int(right.header("Retry-After") ?? "") ?? 0
            #expect(retryAfter >= 1 && retryAfter <= 15 * 60, "the lock ends with the 15-minute window: Retry-After \(retryAfter)")

            try server.logIn("bob@example.com")
            expectProblem(try server.call("POST", "/v1/auth/login", json: ["email": "bob@example.com", "password": "wrong-password-123"]),
                          401, "INVALID_LOGIN_CREDENTIALS", "another account's failures are its own")
        }

        /// The window is 15 minutes and not configurable, so the test moves the stored
        /// window back (migrations/0005: `password_failures`) instead of waiting.
        @Test func aLockedAccountOpensAgainOnceTheWindowHasPassed() throws {
            let server = try AccountServer(rateLimits: true, ["--ip-rate-per-minute", "1000", "--login-max-failures", "2"])
            try server.signUp("ada@example.com", "ada")
            for _ in 0..<3 { _ = try server.call("POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": "wrong-password-123"]) }
            expectProblem(try server.call("POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": AccountServer.password]),
                          429, "TOO_MANY_ATTEMPTS_TRY_LATER", "locked")
            let arguments = ["--ip-rate-per-minute", "1000", "--login-max-failures", "2"]
            let restarted = try server.restarted(rateLimits: true, arguments)
            expectProblem(try restarted.call("POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": AccountServer.password]),
                          429, "TOO_MANY_ATTEMPTS_TRY_LATER", "a restart is no way around the lock")
            restarted.stop()
            try StoredRows.write(server, "UPDATE password_failures SET window_start = window_start - 901")
            let later = try restarted.restarted(rateLimits: true, arguments)
            defer { later.stop() }
            try later.logIn("ada@example.com")
        }

        @Test func forwardedForIsIgnoredFromAnUntrustedPeer() throws {
            let server = try Self.server()
            defer { server.stop() }
            try Self.expectThrottled("spoofed X-Forwarded-For") { attempt in
                try server.call("GET", "/v1/display-names/name_\(attempt)", headers: ["X-Forwarded-For": "203.0.113.\(attempt + 1)"])
            }
        }

        @Test func forwardedForIsBelievedFromATrustedProxy() throws {
            let server = try Self.server(["--trusted-proxies", "127.0.0.1"])
            defer { server.stop() }
            try Self.expectThrottled("client 203.0.113.7 behind the proxy") { attempt in
                try server.call("GET", "/v1/display-names/name_\(attempt)", headers: ["X-Forwarded-For": "203.0.113.7"])
            }
            let other = try server.call("GET", "/v1/display-names/other_name", headers: ["X-Forwarded-For": "203.0.113.8"])
            #expect(other.status == 200, "another client behind the same proxy has its own allowance: \(other)")
            let proxyItself = try server.availability("proxy_itself")
            #expect(proxyItself.status == 200, "the proxy's own requests are not the client's: \(proxyItself)")
            let again = try server.call("GET", "/v1/display-names/again", headers: ["X-Forwarded-For": "203.0.113.7"])
            expectProblem(again, 429, "TOO_MANY_ATTEMPTS_TRY_LATER", "the throttled client is still throttled")
        }

        /// Behind a trusted proxy, entries left of the last one were written by the client
        /// and prove nothing: varying them must not buy a fresh allowance.
        @Test func forwardedEntriesWrittenByTheClientAreNotBelieved() throws {
            let server = try Self.server(["--trusted-proxies", "127.0.0.1"])
            defer { server.stop() }
            try Self.expectThrottled("client 198.51.100.7 varying the entries it wrote") { attempt in
                try server.call("GET", "/v1/display-names/name_\(attempt)", headers: ["X-Forwarded-For": "10.0.0.\(attempt + 1), 198.51.100.7"])
            }
        }

        @Test func nothingIsThrottledWhenRateLimitsAreOff() throws {
            let server = try AccountServer(rateLimits: false, ["--ip-rate-per-minute", "1", "--login-max-failures", "1"])
            defer { server.stop() }
            try server.signUp("ada@example.com", "ada")
            for attempt in 0..<6 {
                #expect(try server.availability("name_\(attempt)").status == 200)
                expectProblem(try server.call("POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": "wrong-password-123"]),
                              401, "INVALID_LOGIN_CREDENTIALS")
            }
            try server.logIn("ada@example.com")
            try server.signUp("bob@example.com", "bob")
        }
    }
}
