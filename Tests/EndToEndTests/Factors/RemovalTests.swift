import Foundation
import Testing
import TestSupport

extension Factors {
    /// Removing the factor and renewing the recovery codes: both ask for the password.
    @Suite struct Removal {
        @Test func removingTheFactorWithThePasswordLetsAPasswordSignInAgain() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            _ = try SecondFactorFlow.turnOn(server, ada)
            let open = try SecondFactorFlow.challenge(server, ada.email)
            expectProblem(try server.call("DELETE", "/v1/auth/mfa/totp", json: ["password": "not-her-password"], token: ada.accessToken),
                          401, "INVALID_LOGIN_CREDENTIALS")
            let removed = try server.call("DELETE", "/v1/auth/mfa/totp", json: ["password": AccountServer.password], token: ada.accessToken)
            #expect(removed.status == 204, "\(removed)")
            expectTokenPair(try SecondFactorFlow.login(server, ada.email), 200)
            expectProblem(try SecondFactorFlow.answer(server, open, code: "123456"), 400, "MFA_TOKEN_INVALID", "challenges go with the factor")
            let status = try SecondFactorFlow.status(server, ada)
            #expect((status["totp"] as? [String: Any])?["enabled"] as? Bool == false)
            #expect(status["recoveryCodesLeft"] as? Int == 0, "the recovery codes went with it")
            expectProblem(try server.call("DELETE", "/v1/auth/mfa/totp", json: ["password": AccountServer.password], token: ada.accessToken),
                          404, "NOT_FOUND")

            let mails = try Accounts.PasswordReset.mails(server, atLeast: 2).map {
                $0.replacingOccurrences(of: "=\r\n", with: "").replacingOccurrences(of: "=\n", with: "")
            }
            #expect(mails.contains { $0.contains("was turned off") }, "the owner is told: \(mails)")
            let events = try SecondFactorFlow.auditEvents(server, ada.id)
            #expect(events.contains("totp_enabled") && events.contains("totp_removed"), "\(events)")
            #expect(try server.me(ada.accessToken).status == 200, "removing it ends no session")
        }

        @Test func newRecoveryCodesVoidTheOldOnes() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            expectProblem(try server.call("POST", "/v1/auth/mfa/recovery-codes", json: ["password": AccountServer.password], token: ada.accessToken),
                          404, "NOT_FOUND", "no factor, no codes")
            let (_, old) = try SecondFactorFlow.turnOn(server, ada)
            expectProblem(try server.call("POST", "/v1/auth/mfa/recovery-codes", json: ["password": "not-her-password"], token: ada.accessToken),
                          401, "INVALID_LOGIN_CREDENTIALS")
            let renewed = try server.call("POST", "/v1/auth/mfa/recovery-codes", json: ["password": AccountServer.password], token: ada.accessToken)
            #expect(renewed.status == 200)
            let codes = try #require(renewed["recoveryCodes"] as? [String])
            #expect(codes.count == 10 && Set(codes).isDisjoint(with: old))
            expectProblem(try SecondFactorFlow.answer(server, try SecondFactorFlow.challenge(server, ada.email), recoveryCode: old[0]),
                          401, "MFA_CODE_INVALID", "an old code")
            expectTokenPair(try SecondFactorFlow.answer(server, try SecondFactorFlow.challenge(server, ada.email), recoveryCode: codes[0]), 200)
            #expect(try SecondFactorFlow.auditEvents(server, ada.id).contains("recovery_codes_replaced"))
        }

        /// Deleting the account takes the factor, its codes and its challenges with it.
        @Test func deletingTheAccountLeavesNoFactorBehind() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            _ = try SecondFactorFlow.turnOn(server, ada)
            _ = try SecondFactorFlow.challenge(server, ada.email)
            #expect(try server.call("DELETE", "/v1/users/me", json: ["password": AccountServer.password], token: ada.accessToken).status == 204)
            let rows = try StoredRows(server)
            for table in ["totp_factors", "recovery_codes", "mfa_challenges"] {
                #expect(try rows.count("SELECT count(*) FROM \(table) WHERE user_id = ?", ada.id) == 0, "\(table)")
            }
        }

        /// The secret is kept sealed (nonce, ciphertext and tag: 12 + 20 + 16 bytes), never
        /// as itself, and the recovery codes only as hashes.
        @Test func neitherTheSecretNorARecoveryCodeIsStoredAsItself() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let (secret, codes) = try SecondFactorFlow.turnOn(server, ada)
            let raw = try #require(TestTOTP.base32Decoded(secret))
            let rows = try StoredRows(server)
            #expect(try rows.row("SELECT length(sealed_secret) FROM totp_factors WHERE user_id = ?", ada.id) { $0.int(at: 0) } == 48)
            for plain in [raw, Array(secret.utf8)] {
                #expect(try rows.row("SELECT count(*) FROM totp_factors WHERE sealed_secret = ?", plain) { $0.int(at: 0) } == 0)
            }
            #expect(try rows.row("SELECT count(*) FROM recovery_codes WHERE user_id = ?", ada.id) { $0.int(at: 0) } == 10)
            for code in codes {
                #expect(try rows.row("SELECT count(*) FROM recovery_codes WHERE code_hash = ?", Array(code.utf8)) { $0.int(at: 0) } == 0)
            }
        }
    }
}
