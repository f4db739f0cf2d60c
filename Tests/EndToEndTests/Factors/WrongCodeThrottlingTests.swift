import Foundation
import Testing
import TestSupport

extension Factors {
    /// Wrong codes count as wrong passwords do: per account and address, with the
    /// account-wide ceiling, device tokens honoured. Addresses are simulated with
    /// `X-Forwarded-For` from a trusted proxy (127.0.0.1).
    @Suite struct WrongCodeThrottling {
        static let mallory = "203.0.113.9"
        static let adasHome = "198.51.100.4"

        static func server(perAddress: Int = 10, perAccount: Int = 100) throws -> AccountServer {
            try AccountServer(rateLimits: true, [
                "--ip-rate-per-minute", "100000", "--trusted-proxies", "127.0.0.1",
                "--login-max-failures", "\(perAddress)", "--account-max-failures", "\(perAccount)",
            ])
        }

        /// Mallory has the password and tries codes, opening a new challenge whenever one is
        /// used up: the address's ten failures stop Mallory across challenges, while Ada
        /// still signs in from home, and from Mallory's café with her device token.
        @Test func tenWrongCodesFromOneAddressAnswer429AcrossChallenges() throws {
            let server = try Self.server()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let (secret, recoveryCodes) = try SecondFactorFlow.turnOn(server, ada)
            let phone = try SecondFactorFlow.answer(
                server, try SecondFactorFlow.challenge(server, ada.email, from: Self.adasHome), code: try SecondFactorFlow.nextCode(secret),
                from: Self.adasHome)
            expectTokenPair(phone, 200)
            let deviceToken = try #require(phone["deviceToken"] as? String)

            let wrong = try SecondFactorFlow.wrongCode(secret)
            for round in 1...2 {
                let mfaToken = try SecondFactorFlow.challenge(server, ada.email, from: Self.mallory)
                for attempt in 1...5 {
                    expectProblem(try SecondFactorFlow.answer(server, mfaToken, code: wrong, from: Self.mallory), 401, "MFA_CODE_INVALID",
                                  "round \(round), guess \(attempt)")
                }
            }
            let locked = try SecondFactorFlow.login(server, ada.email, from: Self.mallory)
            expectProblem(locked, 429, "TOO_MANY_ATTEMPTS_TRY_LATER", "the right password too, from the guessing address")
            #expect((Int(locked.header("Retry-After") ?? "") ?? 0) > 1, "locked until the window passes")

            let fromHome = try SecondFactorFlow.challenge(server, ada.email, from: Self.adasHome)
            expectTokenPair(try SecondFactorFlow.answer(server, fromHome, recoveryCode: recoveryCodes[0], from: Self.adasHome), 200)
            let inTheCafe = try SecondFactorFlow.challenge(server, ada.email, deviceToken: deviceToken, from: Self.mallory)
            expectTokenPair(try SecondFactorFlow.answer(server, inTheCafe, recoveryCode: recoveryCodes[1], from: Self.mallory), 200)
        }

        /// A challenge opened before the address was locked is throttled too: a code is
        /// not checked while the address is locked, the right one included.
        @Test func anOpenChallengeIsThrottledOnceTheAddressIsLocked() throws {
            let server = try Self.server(perAddress: 3)
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let (secret, _) = try SecondFactorFlow.turnOn(server, ada)
            let kept = try SecondFactorFlow.challenge(server, ada.email, from: Self.mallory)
            let used = try SecondFactorFlow.challenge(server, ada.email, from: Self.mallory)
            let wrong = try SecondFactorFlow.wrongCode(secret)
            for _ in 1...3 {
                expectProblem(try SecondFactorFlow.answer(server, used, code: wrong, from: Self.mallory), 401, "MFA_CODE_INVALID")
            }
            expectProblem(try SecondFactorFlow.answer(server, kept, code: try SecondFactorFlow.nextCode(secret), from: Self.mallory),
                          429, "TOO_MANY_ATTEMPTS_TRY_LATER")
        }

        /// Wrong codes count towards the account-wide ceiling like wrong passwords.
        @Test func wrongCodesCountTowardsTheAccountWideCeiling() throws {
            let server = try Self.server(perAddress: 10, perAccount: 4)
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let (secret, _) = try SecondFactorFlow.turnOn(server, ada)
            let wrong = try SecondFactorFlow.wrongCode(secret)
            for index in 1...4 {
                let address = "203.0.113.\(index)"
                let mfaToken = try SecondFactorFlow.challenge(server, ada.email, from: address)
                expectProblem(try SecondFactorFlow.answer(server, mfaToken, code: wrong, from: address), 401, "MFA_CODE_INVALID")
            }
            expectProblem(try SecondFactorFlow.login(server, ada.email, from: Self.adasHome), 429, "TOO_MANY_ATTEMPTS_TRY_LATER",
                          "every address once the account's ceiling is reached")
        }
    }
}
