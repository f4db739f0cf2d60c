import Foundation
import Testing
import TestSupport

extension Accounts {
    /// Password guessing is throttled per account and client address, with a ceiling per
    /// account from everywhere; every place that checks a password counts; and a flood of
    /// guesses cannot fill the hashing queue for everybody else. Client addresses are
    /// simulated with `X-Forwarded-For` from a trusted proxy (127.0.0.1).
    @Suite struct PasswordGuessing {
        static func server(perAddress: Int = 3, perAccount: Int = 100, iterations: Int = 1000) throws -> AccountServer {
            try AccountServer(iterations: iterations, rateLimits: true, [
                "--ip-rate-per-minute", "100000", "--trusted-proxies", "127.0.0.1",
                "--login-max-failures", "\(perAddress)", "--account-max-failures", "\(perAccount)",
            ])
        }

        static func login(_ server: AccountServer, _ email: String, _ password: String, from address: String) throws -> JSONResponse {
            try server.call("POST", "/v1/auth/login", json: ["email": email, "password": password], headers: ["X-Forwarded-For": address])
        }

        @Test func aStrangersGuessesDoNotLockTheOwnerOutFromAnotherAddress() throws {
            let server = try Self.server()
            defer { server.stop() }
            try server.signUp("ada@example.com", "ada")
            for _ in 0..<3 {
                expectProblem(try Self.login(server, "ada@example.com", "wrong-password-1", from: "203.0.113.9"), 401, "INVALID_LOGIN_CREDENTIALS")
            }
            expectProblem(try Self.login(server, "ada@example.com", AccountServer.password, from: "203.0.113.9"),
                          429, "TOO_MANY_ATTEMPTS_TRY_LATER", "the guessing address, even with the right password")
            expectTokenPair(try Self.login(server, "ada@example.com", AccountServer.password, from: "198.51.100.4"), 200)
        }

        @Test func theAccountWideCeilingStopsGuessesFromEveryAddress() throws {
            let server = try Self.server(perAddress: 3, perAccount: 5)
            defer { server.stop() }
            try server.signUp("ada@example.com", "ada")
            for index in 1...5 {
                expectProblem(try Self.login(server, "ada@example.com", "wrong-password-1", from: "203.0.113.\(index)"),
                              401, "INVALID_LOGIN_CREDENTIALS", "guess \(index)")
            }
            let owner = try Self.login(server, "ada@example.com", AccountServer.password, from: "198.51.100.4")
            expectProblem(owner, 429, "TOO_MANY_ATTEMPTS_TRY_LATER", "every address, the right password too")
            #expect((Int(owner.header("Retry-After") ?? "") ?? 0) > 1, "locked until the window passes")
        }

        @Test func ipv6ClientsAreCountedPerSlash64() throws {
            let server = try Self.server()
            defer { server.stop() }
            try server.signUp("ada@example.com", "ada")
            for host in 1...3 {
                expectProblem(try Self.login(server, "ada@example.com", "wrong-password-1", from: "2001:db8:1:2::\(host)"),
                              401, "INVALID_LOGIN_CREDENTIALS")
            }
            expectProblem(try Self.login(server, "ada@example.com", AccountServer.password, from: "2001:db8:1:2:ffff::7"),
                          429, "TOO_MANY_ATTEMPTS_TRY_LATER", "another address of the same /64")
            expectTokenPair(try Self.login(server, "ada@example.com", AccountServer.password, from: "2001:db8:1:3::1"), 200)
        }

        @Test func changingThePasswordCountsAndIsThrottledLikeALogin() throws {
            let server = try Self.server()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let guess: [String: Any] = ["currentPassword": "wrong-password-1", "newPassword": "a-brand-new-passphrase"]
            for _ in 0..<3 {
                expectProblem(try server.call("POST", "/v1/auth/password", json: guess, token: ada.accessToken), 401, "INVALID_LOGIN_CREDENTIALS")
            }
            let right: [String: Any] = ["currentPassword": AccountServer.password, "newPassword": "a-brand-new-passphrase"]
            expectProblem(try server.call("POST", "/v1/auth/password", json: right, token: ada.accessToken), 429, "TOO_MANY_ATTEMPTS_TRY_LATER")
            expectProblem(try server.call("POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": AccountServer.password]),
                          429, "TOO_MANY_ATTEMPTS_TRY_LATER", "the same account and address, at login")
        }

        @Test func deletingTheAccountCountsAndIsThrottledLikeALogin() throws {
            let server = try Self.server()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            for _ in 0..<3 {
                expectProblem(try server.call("DELETE", "/v1/users/me", json: ["password": "wrong-password-1"], token: ada.accessToken),
                              401, "INVALID_LOGIN_CREDENTIALS")
            }
            expectProblem(try server.call("DELETE", "/v1/users/me", json: ["password": AccountServer.password], token: ada.accessToken),
                          429, "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(try server.me(ada.accessToken).status == 200, "the account is still there")
        }

        /// One token holder firing many wrong current passwords at once gets 429s, not
        /// hashes: the hashing queue stays free for everybody else's logins (from another
        /// address).
        @Test func aFloodOfGuessesFromOneAccountLeavesTheHashingQueueToOthers() throws {
            let server = try Self.server(perAddress: 1000, perAccount: 100_000, iterations: 200_000)
            defer { server.stop() }
            let mallory = try server.signUp("mallory@example.com", "mallory")
            try server.signUp("ada@example.com", "ada")
            let (port, token) = (server.port, mallory.accessToken)
            let statuses = concurrently(121) { index -> Int in
                let request: (String, [String: Any], String?) = index == 60
                    ? ("/v1/auth/login", ["email": "ada@example.com", "password": AccountServer.password], nil)
                    : ("/v1/auth/password", ["currentPassword": "wrong-\(index)-guess", "newPassword": "a-brand-new-passphrase"], token)
                let address = index == 60 ? "198.51.100.4" : "203.0.113.66"
                return (try? call(port: port, "POST", request.0, body: .json(request.1), token: request.2,
                                  headers: ["X-Forwarded-For": address], timeout: 60))?.status ?? -1
            }
            #expect(statuses[60] == 200, "the other user's login went through: \(statuses[60])")
            let flood = statuses.enumerated().filter { $0.offset != 60 }.map(\.element)
            #expect(Set(flood).isSubset(of: [401, 429]), "guesses are refused or throttled, never shed as 503: \(Set(flood))")
            #expect(flood.filter { $0 == 429 }.count > 100, "most of the flood never reached the hashing queue")
        }
    }
}
