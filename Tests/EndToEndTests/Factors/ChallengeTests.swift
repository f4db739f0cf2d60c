import Foundation
import Testing
import TestSupport

extension Factors {
    /// A password login for an account with a live factor stops at a challenge that only a
    /// correct code (or a recovery code) turns into a session.
    @Suite struct Challenge {
        /// Mallory has Ada's password (a reused one, leaked elsewhere) but not Ada's phone.
        @Test func anAttackerWithThePasswordButNotThePhoneGetsNoSession() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let (secret, _) = try SecondFactorFlow.turnOn(server, ada)

            // Mallory types the leaked password: the server asks for the second step and
            // starts no session.
            let stopped = try SecondFactorFlow.login(server, ada.email)
            #expect(stopped.status == 200)
            #expect(stopped["mfaRequired"] as? Bool == true, "\(stopped)")
            #expect(stopped["accessToken"] == nil && stopped["refreshToken"] == nil, "no tokens before the code: \(stopped)")
            #expect(stopped["methods"] as? [String] == ["totp", "recoveryCode"])
            #expect(stopped["expiresIn"] as? Int == 300)
            #expect(stopped.header("Cache-Control") == "no-store")
            #expect(try SecondFactorFlow.sessionCount(server, ada) == 1, "Ada's own session is the only one")
            let mfaToken = try #require(stopped["mfaToken"] as? String)

            // Mallory guesses a code.
            expectProblem(try SecondFactorFlow.answer(server, mfaToken, code: try SecondFactorFlow.wrongCode(secret)), 401, "MFA_CODE_INVALID")
            expectProblem(try SecondFactorFlow.answer(server, mfaToken, recoveryCode: "abcde-fghjk-mnpqr"), 401, "MFA_CODE_INVALID")
            #expect(try SecondFactorFlow.sessionCount(server, ada) == 1, "still no session of Mallory's")
        }

        @Test func aCorrectCodeSignsInWithTheSecondFactorInTheAccessToken() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let (secret, _) = try SecondFactorFlow.turnOn(server, ada)
            let mfaToken = try SecondFactorFlow.challenge(server, ada.email)
            let signedIn = try SecondFactorFlow.answer(server, mfaToken, code: try SecondFactorFlow.nextCode(secret))
            expectTokenPair(signedIn, 200, email: ada.email)
            #expect(SecondFactorFlow.amr(signedIn) == ["pwd", "otp", "mfa"])
            #expect((signedIn["deviceToken"] as? String)?.isEmpty == false, "a device token, as a password login gives")
            #expect(try SecondFactorFlow.sessionCount(server, ada) == 2)
            let refreshed = try server.refresh(try #require(signedIn["refreshToken"] as? String))
            #expect(SecondFactorFlow.amr(refreshed) == ["pwd", "otp", "mfa"], "a refresh keeps how the session signed in")

            // The mfaToken worked once.
            expectProblem(try SecondFactorFlow.answer(server, mfaToken, code: try SecondFactorFlow.nextCode(secret)), 400, "MFA_TOKEN_INVALID", field: "mfaToken")
            expectProblem(try SecondFactorFlow.answer(server, "not-a-token", code: "123456"), 400, "MFA_TOKEN_INVALID")
            expectProblem(try server.call("POST", "/v1/auth/mfa/challenge", json: ["mfaToken": mfaToken]), 400, "INVALID_ARGUMENT", field: "code")
        }

        /// Mallory knows the password and watched Ada type a code (over her shoulder, or on
        /// a phishing page that passed it on). Ada signs in with it first; Mallory replays it
        /// within its 30 seconds.
        @Test func anAttackerReplayingAnObservedCodeIsRefused() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let (secret, _) = try SecondFactorFlow.turnOn(server, ada)
            let observed = try SecondFactorFlow.nextCode(secret)
            let adasToken = try SecondFactorFlow.challenge(server, ada.email)
            expectTokenPair(try SecondFactorFlow.answer(server, adasToken, code: observed), 200)

            let mallorysToken = try SecondFactorFlow.challenge(server, ada.email)
            expectProblem(try SecondFactorFlow.answer(server, mallorysToken, code: observed), 401, "MFA_CODE_INVALID", "the same code again")
            #expect(try SecondFactorFlow.sessionCount(server, ada) == 2, "Ada's two sessions, none of Mallory's")
        }

        /// Two requests carrying the same code at the same instant (Mallory racing Ada): at
        /// most one signs in.
        @Test func ofTwoChallengesRacingWithOneCodeOnlyOneWins() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let (secret, _) = try SecondFactorFlow.turnOn(server, ada)
            let tokens = try (0..<2).map { _ in try SecondFactorFlow.challenge(server, ada.email) }
            let code = try SecondFactorFlow.nextCode(secret)
            let port = server.port
            let statuses = concurrently(2) { index in
                (try? call(port: port, "POST", "/v1/auth/mfa/challenge", body: .json(["mfaToken": tokens[index], "code": code])))?.status ?? -1
            }
            #expect(statuses.sorted() == [200, 401], "\(statuses)")
        }

        @Test func aRecoveryCodeWorksOnce() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let (_, codes) = try SecondFactorFlow.turnOn(server, ada)
            // Typed as a person might: upper case, without the dashes.
            let typed = codes[3].uppercased().replacingOccurrences(of: "-", with: "")
            let signedIn = try SecondFactorFlow.answer(server, try SecondFactorFlow.challenge(server, ada.email), recoveryCode: typed)
            expectTokenPair(signedIn, 200)
            #expect(SecondFactorFlow.amr(signedIn) == ["pwd", "mfa"], "two factors, but not an OTP device")
            expectProblem(try SecondFactorFlow.answer(server, try SecondFactorFlow.challenge(server, ada.email), recoveryCode: codes[3]),
                          401, "MFA_CODE_INVALID", "spent")
            #expect(try SecondFactorFlow.status(server, ada)["recoveryCodesLeft"] as? Int == 9)
            expectTokenPair(try SecondFactorFlow.answer(server, try SecondFactorFlow.challenge(server, ada.email), recoveryCode: codes[4]), 200)
        }

        @Test func anExpiredMFATokenIsRefused() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let (secret, _) = try SecondFactorFlow.turnOn(server, ada)
            let mfaToken = try SecondFactorFlow.challenge(server, ada.email)
            // Five minutes pass (the clock is the server's; the row is made older).
            try StoredRows.write(server, "UPDATE mfa_challenges SET created_at = created_at - 300, expires_at = expires_at - 300 WHERE user_id = ?", ada.id)
            expectProblem(try SecondFactorFlow.answer(server, mfaToken, code: try SecondFactorFlow.nextCode(secret)), 400, "MFA_TOKEN_INVALID")
        }

        @Test func fiveWrongCodesUseTheMFATokenUp() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let (secret, _) = try SecondFactorFlow.turnOn(server, ada)
            let mfaToken = try SecondFactorFlow.challenge(server, ada.email)
            let wrong = try SecondFactorFlow.wrongCode(secret)
            for attempt in 1...5 {
                expectProblem(try SecondFactorFlow.answer(server, mfaToken, code: wrong), 401, "MFA_CODE_INVALID", "wrong code \(attempt)")
            }
            expectProblem(try SecondFactorFlow.answer(server, mfaToken, code: try SecondFactorFlow.nextCode(secret)), 400, "MFA_TOKEN_INVALID",
                          "even the right code, once five wrong ones were tried")
            expectTokenPair(try SecondFactorFlow.answer(server, try SecondFactorFlow.challenge(server, ada.email), code: try SecondFactorFlow.nextCode(secret)), 200)
        }

        /// A password reset does not remove the factor, and voids a challenge opened before it.
        @Test func aPasswordResetKeepsTheFactor() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let (secret, _) = try SecondFactorFlow.turnOn(server, ada)
            let before = try SecondFactorFlow.challenge(server, ada.email)
            #expect(try Accounts.PasswordReset.requestReset(server, ada.email).status == 202)
            let token = try #require(try Accounts.PasswordReset.mails(server, atLeast: 2).compactMap(Accounts.PasswordReset.token).first)
            #expect(try Accounts.PasswordReset.confirm(server, token, "a-whole-new-passphrase").status == 204)

            expectProblem(try SecondFactorFlow.answer(server, before, code: try SecondFactorFlow.nextCode(secret)), 400, "MFA_TOKEN_INVALID",
                          "a challenge of the old password")
            let after = try SecondFactorFlow.login(server, ada.email, password: "a-whole-new-passphrase")
            #expect(after["mfaRequired"] as? Bool == true, "the factor is still asked for: \(after)")
            let mfaToken = try #require(after["mfaToken"] as? String)
            expectTokenPair(try SecondFactorFlow.answer(server, mfaToken, code: try SecondFactorFlow.nextCode(secret)), 200)
        }

        @Test func aDisabledAccountGetsNoChallenge() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            _ = try SecondFactorFlow.turnOn(server, ada)
            #expect(try Accounts.AdminCommands.run(["users", "disable", ada.id, "--data-dir", server.dataDirectory]).status == 0)
            expectProblem(try SecondFactorFlow.login(server, ada.email), 403, "USER_DISABLED")
            expectProblem(try SecondFactorFlow.login(server, ada.email, password: "not-her-password"), 401, "INVALID_LOGIN_CREDENTIALS")
        }
    }
}
