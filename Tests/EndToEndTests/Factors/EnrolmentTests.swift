import Foundation
import Testing
import TestSupport

extension Factors {
    /// Turning the second factor on: a pending secret, live only after a first correct code.
    @Suite struct Enrolment {
        @Test func aFirstCorrectCodeMakesThePendingFactorLiveAndShowsTenRecoveryCodes() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            #expect(try SecondFactorFlow.status(server, ada)["recoveryCodesLeft"] as? Int == 0)

            expectProblem(try server.call("POST", "/v1/auth/mfa/totp", json: ["password": "not-her-password"], token: ada.accessToken),
                          401, "INVALID_LOGIN_CREDENTIALS", "enrolment asks for the password")
            let enrolled = try server.call("POST", "/v1/auth/mfa/totp", json: ["password": AccountServer.password], token: ada.accessToken)
            #expect(enrolled.status == 200)
            #expect(enrolled.header("Cache-Control") == "no-store", "the secret is not cached anywhere")
            let secret = try #require(enrolled["secret"] as? String)
            #expect(TestTOTP.base32Decoded(secret)?.count == 20, "160 bits of base32")
            #expect(enrolled["otpauthURI"] as? String
                    == "otpauth://totp/Latchkey:ada%40example.com?secret=\(secret)&issuer=Latchkey&algorithm=SHA1&digits=6&period=30")
            let pending = try SecondFactorFlow.status(server, ada)
            #expect((pending["totp"] as? [String: Any])?["enabled"] as? Bool == false, "pending is not live: \(pending)")
            expectTokenPair(try SecondFactorFlow.login(server, ada.email), 200)

            expectProblem(try server.call("POST", "/v1/auth/mfa/totp/verify", json: ["code": try SecondFactorFlow.wrongCode(secret)], token: ada.accessToken),
                          400, "MFA_CODE_INVALID", field: "code")
            let confirmed = try server.call("POST", "/v1/auth/mfa/totp/verify", json: ["code": try TestTOTP.code(secret)], token: ada.accessToken)
            #expect(confirmed.status == 200)
            let codes = try #require(confirmed["recoveryCodes"] as? [String])
            #expect(codes.count == 10 && Set(codes).count == 10, "ten distinct codes: \(codes)")
            #expect(codes.allSatisfy { $0.wholeMatch(of: /[0-9a-z]{5}-[0-9a-z]{5}-[0-9a-z]{5}/) != nil }, "\(codes)")

            let live = try SecondFactorFlow.status(server, ada)
            let totp = try #require(live["totp"] as? [String: Any])
            #expect(totp["enabled"] as? Bool == true)
            #expect((totp["createdAt"] as? String)?.hasSuffix("Z") == true, "\(live)")
            #expect(live["recoveryCodesLeft"] as? Int == 10)
            expectProblem(try server.call("POST", "/v1/auth/mfa/totp/verify", json: ["code": try TestTOTP.code(secret)], token: ada.accessToken),
                          409, "MFA_NOT_PENDING", "a live factor is not confirmed twice")
            expectProblem(try server.call("POST", "/v1/auth/mfa/totp", json: ["password": AccountServer.password], token: ada.accessToken),
                          409, "MFA_ALREADY_ENABLED")
            #expect(try SecondFactorFlow.login(server, ada.email)["mfaRequired"] as? Bool == true, "from now on a password alone is not enough")
        }

        @Test func aSecondEnrolmentReplacesThePendingSecret() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let first = try SecondFactorFlow.enrol(server, ada)
            let second = try SecondFactorFlow.enrol(server, ada)
            #expect(first != second)
            let firstCode = try TestTOTP.code(first)
            if firstCode != (try TestTOTP.code(second)) {
                expectProblem(try server.call("POST", "/v1/auth/mfa/totp/verify", json: ["code": firstCode], token: ada.accessToken),
                              400, "MFA_CODE_INVALID", "the replaced secret's code")
            }
            #expect(try server.call("POST", "/v1/auth/mfa/totp/verify", json: ["code": try TestTOTP.code(second)], token: ada.accessToken).status == 200)
        }

        @Test func confirmingWithoutAPendingFactorIsRefused() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            expectProblem(try server.call("POST", "/v1/auth/mfa/totp/verify", json: ["code": "123456"], token: ada.accessToken), 409, "MFA_NOT_PENDING")
            expectProblem(try server.call("POST", "/v1/auth/mfa/totp/verify", json: ["code": "123456"]), 401, "UNAUTHENTICATED")
        }

        /// Turning it on is an account event: the owner is mailed, the audit log has it, and
        /// the other sessions stay signed in.
        @Test func turningItOnMailsANoticeAndWritesTheAuditLog() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let phone = try server.logIn(ada.email)
            _ = try SecondFactorFlow.turnOn(server, ada)
            let notice = try #require(try Accounts.PasswordReset.mails(server, atLeast: 1).first)
            #expect(notice.contains("To: ada@example.com"), "\(notice)")
            #expect(notice.replacingOccurrences(of: "=\r\n", with: "").replacingOccurrences(of: "=\n", with: "").contains("was turned on"), "\(notice)")
            #expect(try SecondFactorFlow.auditEvents(server, ada.id).contains("totp_enabled"))
            #expect(try server.me(phone.accessToken).status == 200, "other sessions untouched")
        }
    }
}
