import Foundation
import Testing
import TestSupport

extension Passkeys {
    /// Signing in with a passkey alone: nobody types an email, the answer is a TokenPair
    /// whose session counts as two factors; every part of the assertion is checked.
    @Suite struct SignIn {
        /// A registered user, their authenticator, and the server.
        static func registered() throws -> (PasskeyServer, Account, TestAuthenticator) {
            let server = try PasskeyServer()
            let ada = try server.server.signUp("ada@example.com", "ada")
            let authenticator = try TestAuthenticator()
            try server.registerPasskey(authenticator, token: ada.accessToken)
            return (server, ada, authenticator)
        }

        @Test func aPasskeyAloneSignsInWithTwoFactors() throws {
            let (server, ada, authenticator) = try Self.registered()
            defer { server.stop(); authenticator.remove() }
            let options = try server.server.call("POST", "/v1/auth/passkeys/login/options")
            expectPrivateJSON(options, 200)
            #expect(options["rpId"] as? String == PasskeyServer.rpID && options["userVerification"] as? String == "required")
            #expect((options["allowCredentials"] as? [Any])?.isEmpty == true, "discoverable: no credential named")
            let challenge = try #require(options["challenge"] as? String)
            let handle = try #require((try server.registrationOptions(ada.accessToken).options["user"] as? [String: Any])?["id"] as? String)

            let signedIn = try server.signIn(try authenticator.assertion(
                challenge: challenge, rpID: PasskeyServer.rpID, origin: PasskeyServer.origin, counter: 0, userHandle: handle))
            expectTokenPair(signedIn, 200, email: ada.email)
            #expect(signedIn["deviceToken"] == nil, "a passkey makes no device token")
            let accessToken = try #require(signedIn["accessToken"] as? String)
            let claims = try #require(JWTParts(accessToken)?.payload)
            #expect(claims["amr"] as? [String] == ["webauthn", "mfa"], "\(claims)")
            #expect(claims["sub"] as? String == ada.id)
            let refreshed = try server.server.refresh(try #require(signedIn["refreshToken"] as? String))
            #expect(JWTParts(refreshed["accessToken"] as? String ?? "")?.payload["amr"] as? [String] == ["webauthn", "mfa"], "a refresh keeps the methods")
            #expect(try server.audit("login", of: ada.id).last == "passkey")
            let used = try server.passkeys(ada.accessToken).first
            #expect(isContractTime(used?["lastUsedAt"]), "last use recorded: \(String(describing: used))")

            // The iOS app's origin is one of the party's too.
            let fromApp = try authenticator.assertion(challenge: try server.signInChallenge(), rpID: PasskeyServer.rpID, origin: PasskeyServer.iOSOrigin)
            expectTokenPair(try server.signIn(fromApp), 200, email: ada.email)
        }

        /// A phishing page at another origin relays the victim's sign-in: the authenticator
        /// signs, but the client data names the phishing origin, so the server refuses it.
        /// The same for a credential made for another RP ID (a look-alike domain), an
        /// assertion without user verification (a stolen, unlocked key fob), and a signature
        /// the attacker altered.
        @Test(arguments: ["ORIGIN", "RP_ID", "USER_VERIFICATION", "USER_PRESENCE", "SIGNATURE"])
        func anAssertionWrongInOnePartIsRefusedWithItsReason(_ reason: String) throws {
            let (server, ada, authenticator) = try Self.registered()
            defer { server.stop(); authenticator.remove() }
            let challenge = try server.signInChallenge()
            let (rpID, origin, uv, up) = (PasskeyServer.rpID, PasskeyServer.origin, TestAuthenticator.userVerified, TestAuthenticator.userPresent)
            let assertion = switch reason {
            case "ORIGIN": try authenticator.assertion(challenge: challenge, rpID: rpID, origin: "https://auth.latchkey.test.evil.example")
            case "RP_ID": try authenticator.assertion(challenge: challenge, rpID: "latchkey-test.evil.example", origin: origin)
            case "USER_VERIFICATION": try authenticator.assertion(challenge: challenge, rpID: rpID, origin: origin, flags: up)
            case "USER_PRESENCE": try authenticator.assertion(challenge: challenge, rpID: rpID, origin: origin, flags: uv)
            default: try authenticator.assertion(challenge: challenge, rpID: rpID, origin: origin, tamper: true)
            }
            expectProblem(try server.signIn(assertion), 400, "WEBAUTHN_INVALID", reason: reason)
            #expect(try server.audit("login", of: ada.id).isEmpty, "no session was started")
            #expect(try server.audit("login_failed", of: ada.id).last == "passkey \(reason)")
        }

        /// An attacker who captured one good assertion (a proxy, a log) sends it again: its
        /// challenge was spent by the first use, so the replay is refused.
        @Test func aReplayedAssertionIsRefused() throws {
            let (server, _, authenticator) = try Self.registered()
            defer { server.stop(); authenticator.remove() }
            let captured = try authenticator.assertion(challenge: try server.signInChallenge(), rpID: PasskeyServer.rpID, origin: PasskeyServer.origin)
            #expect(try server.signIn(captured).status == 200)
            expectProblem(try server.signIn(captured), 400, "CHALLENGE_INVALID")
        }

        /// A challenge is spent by its first use even when that use fails: an attacker whose
        /// forged assertion was refused cannot retry against the same challenge, and a
        /// challenge the server never gave is refused as well.
        @Test func aChallengeIsSpentByAFailedUseAndAnInventedOneIsRefused() throws {
            let (server, _, authenticator) = try Self.registered()
            defer { server.stop(); authenticator.remove() }
            let challenge = try server.signInChallenge()
            let forged = try authenticator.assertion(challenge: challenge, rpID: PasskeyServer.rpID, origin: PasskeyServer.origin, tamper: true)
            expectProblem(try server.signIn(forged), 400, "WEBAUTHN_INVALID", reason: "SIGNATURE")
            let good = try authenticator.assertion(challenge: challenge, rpID: PasskeyServer.rpID, origin: PasskeyServer.origin)
            expectProblem(try server.signIn(good), 400, "CHALLENGE_INVALID")
            let invented = try authenticator.assertion(
                challenge: TestAuthenticator.base64URL((0..<32).map { _ in UInt8.random(in: 0...255) }), rpID: PasskeyServer.rpID, origin: PasskeyServer.origin)
            expectProblem(try server.signIn(invented), 400, "CHALLENGE_INVALID")
            // A registration challenge is not a sign-in one.
            let ada = try server.server.logIn("ada@example.com")
            let (registration, _) = try server.registrationOptions(ada.accessToken)
            expectProblem(try server.signIn(try authenticator.assertion(challenge: registration, rpID: PasskeyServer.rpID, origin: PasskeyServer.origin)),
                          400, "CHALLENGE_INVALID")
        }

        /// The victim lost a phone and deleted its passkey; whoever holds the phone tries
        /// it: the credential is unknown. So is one never registered. The passkey signed in
        /// before it was deleted, so the server knew it (`KnownCredentials`): knowing it is
        /// not enough, the write finds it gone.
        @Test func aDeletedOrUnknownPasskeyIsRefused() throws {
            let (server, ada, authenticator) = try Self.registered()
            defer { server.stop(); authenticator.remove() }
            let stranger = try TestAuthenticator()
            defer { stranger.remove() }
            expectProblem(try server.signIn(stranger), 401, "PASSKEY_UNKNOWN")
            let before = try server.signIn(authenticator)
            #expect(before.status == 200, "\(before)")
            let id = TestAuthenticator.base64URL(authenticator.credentialID)
            #expect(try server.server.call("DELETE", "/v1/auth/passkeys/\(id)", json: ["password": AccountServer.password], token: ada.accessToken).status == 204)
            expectProblem(try server.signIn(authenticator), 401, "PASSKEY_UNKNOWN")
        }

        /// The user handle is outside the signature: an attacker who names another
        /// account's handle beside a good assertion does not get that account.
        @Test func aUserHandleOfAnotherAccountIsRefused() throws {
            let (server, _, authenticator) = try Self.registered()
            defer { server.stop(); authenticator.remove() }
            let bob = try server.server.signUp("bob@example.com", "bob")
            let bobsHandle = try #require((try server.registrationOptions(bob.accessToken).options["user"] as? [String: Any])?["id"] as? String)
            let stitched = try authenticator.assertion(
                challenge: try server.signInChallenge(), rpID: PasskeyServer.rpID, origin: PasskeyServer.origin, userHandle: bobsHandle)
            expectProblem(try server.signIn(stitched), 401, "PASSKEY_UNKNOWN")
        }

        @Test func aDisabledUserCannotSignInWithAPasskey() throws {
            let (server, ada, authenticator) = try Self.registered()
            defer { server.stop(); authenticator.remove() }
            let disabled = try Accounts.AdminCommands.run(["users", "disable", ada.id, "--data-dir", server.server.dataDirectory])
            #expect(disabled.status == 0, "\(disabled.output)")
            expectProblem(try server.signIn(authenticator), 403, "USER_DISABLED")
        }

        /// The victim's security key was copied: the copy and the original each count on
        /// from where they were, so one of them reports a counter that does not move
        /// forward. The sign-in goes ahead (synced passkeys report 0 and a lock-out would
        /// serve the attacker), and the audit log names the credential as a possible clone.
        @Test func aCounterGoingBackwardsSignsInAndWritesACloneWarning() throws {
            let (server, ada, authenticator) = try Self.registered()
            defer { server.stop(); authenticator.remove() }
            expectTokenPair(try server.signIn(authenticator, counter: 5), 200)
            expectTokenPair(try server.signIn(authenticator, counter: 9), 200)
            #expect(try server.audit("passkey_clone_warning", of: ada.id).isEmpty, "a counter moving forward is fine")
            expectTokenPair(try server.signIn(authenticator, counter: 3), 200, email: ada.email)
            #expect(try server.audit("passkey_clone_warning", of: ada.id) == [TestAuthenticator.base64URL(authenticator.credentialID)])
            // Synced passkeys report 0: never a warning.
            expectTokenPair(try server.signIn(authenticator, counter: 0), 200)
            #expect(try server.audit("passkey_clone_warning", of: ada.id).count == 1)
        }

        @Test func aDeviceTokenSentComesBackAndNoneIsMade() throws {
            let (server, ada, authenticator) = try Self.registered()
            defer { server.stop(); authenticator.remove() }
            let login = try server.server.call("POST", "/v1/auth/login", json: ["email": ada.email, "password": AccountServer.password])
            let deviceToken = try #require(login["deviceToken"] as? String)
            let assertion = try authenticator.assertion(challenge: try server.signInChallenge(), rpID: PasskeyServer.rpID, origin: PasskeyServer.origin)
            let signedIn = try server.signIn(assertion, deviceToken: deviceToken)
            expectTokenPair(signedIn, 200)
            #expect(signedIn["deviceToken"] as? String != nil)
            let forged = try authenticator.assertion(challenge: try server.signInChallenge(), rpID: PasskeyServer.rpID, origin: PasskeyServer.origin)
            #expect(try server.signIn(forged, deviceToken: "not-a-device-token")["deviceToken"] == nil)
        }

        /// Sign-in options are open to anyone, so they draw on the per-address login budget.
        @Test func signInOptionsAreThrottledPerAddress() throws {
            let server = try PasskeyServer(rateLimits: true, ["--ip-rate-per-minute", "3"])
            defer { server.stop() }
            for _ in 0..<3 { #expect(try server.server.call("POST", "/v1/auth/passkeys/login/options").status == 200) }
            expectProblem(try server.server.call("POST", "/v1/auth/passkeys/login/options"), 429, "TOO_MANY_ATTEMPTS_TRY_LATER")
        }
    }
}
