import Foundation
import Testing
import TestSupport

extension Passkeys {
    /// Registering a passkey for the signed-in account, listing, renaming and deleting it.
    @Suite struct Registration {
        @Test func theOptionsNameTheRelyingPartyAnOpaqueUserHandleAndTheThreeAlgorithms() throws {
            let server = try PasskeyServer()
            defer { server.stop() }
            let ada = try server.server.signUp("ada@example.com", "ada")
            let (challenge, options) = try server.registrationOptions(ada.accessToken)
            expectPrivateJSON(options, 200)
            #expect((JWTParts.base64URLDecode(challenge)?.count ?? 0) >= 32, "at least 256 bits: \(challenge)")
            #expect(options["rp"] as? [String: String] == ["id": PasskeyServer.rpID, "name": "Latchkey Tests"])
            let user = try #require(options["user"] as? [String: Any])
            let handle = try #require(user["id"] as? String)
            #expect(handle != ada.id && !handle.contains("ada") && (JWTParts.base64URLDecode(handle)?.count ?? 0) >= 32,
                    "the user handle is neither the id nor the address: \(handle)")
            #expect(user["name"] as? String == ada.email)
            let algorithms = (options["pubKeyCredParams"] as? [[String: Any]])?.compactMap { $0["alg"] as? Int }
            #expect(algorithms == [-7, -8, -257])
            #expect(options["attestation"] as? String == "none")
            let selection = options["authenticatorSelection"] as? [String: Any]
            #expect(selection?["residentKey"] as? String == "required" && selection?["userVerification"] as? String == "required")
            #expect((options["excludeCredentials"] as? [Any])?.isEmpty == true)

            let again = try server.registrationOptions(ada.accessToken)
            #expect(again.challenge != challenge, "a fresh challenge each time")
            #expect((again.options["user"] as? [String: Any])?["id"] as? String == handle, "one handle per account")
            expectProblem(try server.server.call("POST", "/v1/auth/passkeys/register/options"), 401, "UNAUTHENTICATED")
        }

        @Test(arguments: ["none", "packed"])
        func aPasskeyIsRegisteredListedRenamedAndDeleted(_ attestation: String) throws {
            let server = try PasskeyServer()
            defer { server.stop() }
            let ada = try server.server.signUp("ada@example.com", "ada")
            let other = try server.server.logIn(ada.email)
            let authenticator = try TestAuthenticator()
            defer { authenticator.remove() }

            let (challenge, _) = try server.registrationOptions(ada.accessToken)
            let registered = try server.register(
                try authenticator.registration(challenge: challenge, rpID: PasskeyServer.rpID, origin: PasskeyServer.origin, format: attestation),
                name: "  Ada’s iPhone  ", token: ada.accessToken)
            expectPrivateJSON(registered, 201)
            let id = TestAuthenticator.base64URL(authenticator.credentialID)
            #expect(registered["id"] as? String == id)
            #expect(registered["name"] as? String == "Ada’s iPhone", "trimmed, any text")
            #expect(isContractTime(registered["createdAt"]) && registered["lastUsedAt"] is NSNull && registered["backedUp"] as? Bool == false)

            let listed = try server.passkeys(ada.accessToken)
            #expect(listed.count == 1 && listed.first?["id"] as? String == id)
            let excluded = (try server.registrationOptions(ada.accessToken).options["excludeCredentials"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(excluded == [id], "the options exclude the account's passkeys")

            let renamed = try server.server.call("PATCH", "/v1/auth/passkeys/\(id)", json: ["name": "Work phone"], token: ada.accessToken)
            expectPrivateJSON(renamed, 200)
            #expect(renamed["name"] as? String == "Work phone")
            for bad in ["", "   ", String(repeating: "x", count: 65), "line\nbreak", "tab\there"] {
                expectProblem(try server.server.call("PATCH", "/v1/auth/passkeys/\(id)", json: ["name": bad], token: ada.accessToken),
                              400, "INVALID_ARGUMENT", field: "name", "name \(bad.debugDescription)")
            }
            #expect(try server.server.call("PATCH", "/v1/auth/passkeys/\(id)", json: ["name": String(repeating: "é", count: 64)], token: ada.accessToken).status == 200)
            expectProblem(try server.server.call("PATCH", "/v1/auth/passkeys/AAAA", json: ["name": "x"], token: ada.accessToken), 404, "NOT_FOUND")

            // Deleting needs the password; a wrong one is the login's answer.
            expectProblem(try server.server.call("DELETE", "/v1/auth/passkeys/\(id)", json: ["password": "not-the-password"], token: ada.accessToken),
                          401, "INVALID_LOGIN_CREDENTIALS")
            #expect(try server.passkeys(ada.accessToken).count == 1, "a wrong password deletes nothing")
            let deleted = try server.server.call("DELETE", "/v1/auth/passkeys/\(id)", json: ["password": AccountServer.password], token: ada.accessToken)
            #expect(deleted.status == 204, "\(deleted)")
            #expect(try server.passkeys(ada.accessToken).isEmpty)
            expectProblem(try server.server.call("DELETE", "/v1/auth/passkeys/\(id)", json: ["password": AccountServer.password], token: ada.accessToken),
                          404, "NOT_FOUND")
            #expect(try server.server.me(other.accessToken).status == 200, "adding and removing a passkey ends no session")
        }

        /// Adding and removing a passkey is an account event: the owner is told by mail and
        /// the audit log keeps both, so a passkey an intruder adds does not go unnoticed.
        @Test func addingAndRemovingAPasskeyMailsTheOwnerAndIsAudited() throws {
            let server = try PasskeyServer()
            defer { server.stop() }
            let ada = try server.server.signUp("ada@example.com", "ada")
            let before = try server.mails(atLeast: 0).count
            let authenticator = try TestAuthenticator()
            defer { authenticator.remove() }
            let passkey = try server.registerPasskey(authenticator, name: "Kitchen iPad", token: ada.accessToken)
            let added = try server.mails(atLeast: before + 1)
            #expect(added.count == before + 1)
            #expect(added.last?.contains("Kitchen iPad") == true && added.last?.contains("ada@example.com") == true, "\(added.last ?? "")")
            #expect(try server.audit("passkey_added", of: ada.id).count == 1)

            let id = try #require(passkey["id"] as? String)
            #expect(try server.server.call("DELETE", "/v1/auth/passkeys/\(id)", json: ["password": AccountServer.password], token: ada.accessToken).status == 204)
            let removed = try server.mails(atLeast: before + 2)
            #expect(removed.count == before + 2)
            #expect(removed.last?.contains("Kitchen iPad") == true && removed.last?.contains("removed") == true, "\(removed.last ?? "")")
            #expect(try server.audit("passkey_removed", of: ada.id).count == 1)
        }

        /// The attacker holds a passkey of their own and wants it on the victim's account:
        /// they answer a registration challenge the victim's session was given (seen in a
        /// log, a shared screen) from their own session. The challenge is the victim's, so
        /// it is refused, and spent: the victim's own answer to it fails too.
        @Test func aRegistrationChallengeOfAnotherAccountIsRefused() throws {
            let server = try PasskeyServer()
            defer { server.stop() }
            let victim = try server.server.signUp("ada@example.com", "ada")
            let attacker = try server.server.signUp("mallory@example.com", "mallory")
            let attackersKey = try TestAuthenticator()
            defer { attackersKey.remove() }
            let (victimsChallenge, _) = try server.registrationOptions(victim.accessToken)
            let forged = try attackersKey.registration(challenge: victimsChallenge, rpID: PasskeyServer.rpID, origin: PasskeyServer.origin)
            expectProblem(try server.register(forged, token: attacker.accessToken), 400, "CHALLENGE_INVALID")
            #expect(try server.passkeys(attacker.accessToken).isEmpty && server.passkeys(victim.accessToken).isEmpty)
            expectProblem(try server.register(forged, token: victim.accessToken), 400, "CHALLENGE_INVALID", "the challenge was spent by its first use")
        }

        /// A credential id names one passkey: registering the same id again, on the same
        /// account or on another (an attacker copying a victim's credential id to hijack
        /// its sign-ins), is refused and leaves the first one as it was.
        @Test func aCredentialIDCanBeRegisteredOnlyOnce() throws {
            let server = try PasskeyServer()
            defer { server.stop() }
            let victim = try server.server.signUp("ada@example.com", "ada")
            let attacker = try server.server.signUp("mallory@example.com", "mallory")
            let victimsKey = try TestAuthenticator()
            let attackersKey = try TestAuthenticator(credentialID: victimsKey.credentialID)
            defer { victimsKey.remove(); attackersKey.remove() }
            try server.registerPasskey(victimsKey, token: victim.accessToken)
            for (who, account) in [("attacker", attacker), ("victim", victim)] {
                let (challenge, _) = try server.registrationOptions(account.accessToken)
                let again = try attackersKey.registration(challenge: challenge, rpID: PasskeyServer.rpID, origin: PasskeyServer.origin)
                expectProblem(try server.register(again, token: account.accessToken), 409, "PASSKEY_EXISTS", who)
            }
            #expect(try server.passkeys(attacker.accessToken).isEmpty)
            let signedIn = try server.signIn(victimsKey)
            expectTokenPair(signedIn, 200, email: victim.email)
        }

        /// Each way a registration can be wrong is refused with its reason.
        @Test func aBadAttestationIsRefusedWithItsReason() throws {
            let server = try PasskeyServer()
            defer { server.stop() }
            let ada = try server.server.signUp("ada@example.com", "ada")
            let authenticator = try TestAuthenticator()
            defer { authenticator.remove() }
            let cases: [(String, (String) throws -> [String: Any])] = [
                ("ORIGIN", { try authenticator.registration(challenge: $0, rpID: PasskeyServer.rpID, origin: "https://evil.example") }),
                ("RP_ID", { try authenticator.registration(challenge: $0, rpID: "evil.example", origin: PasskeyServer.origin) }),
                ("USER_VERIFICATION", { try authenticator.registration(challenge: $0, rpID: PasskeyServer.rpID, origin: PasskeyServer.origin, flags: TestAuthenticator.userPresent) }),
                ("MALFORMED", { challenge in
                    var credential = try authenticator.registration(challenge: challenge, rpID: PasskeyServer.rpID, origin: PasskeyServer.origin)
                    var response = credential["response"] as! [String: Any]
                    response["attestationObject"] = "not*base64url"
                    credential["response"] = response
                    return credential
                }),
            ]
            for (reason, make) in cases {
                let (challenge, _) = try server.registrationOptions(ada.accessToken)
                expectProblem(try server.register(try make(challenge), token: ada.accessToken), 400, "WEBAUTHN_INVALID", reason: reason, reason)
            }
            expectProblem(try server.server.call("POST", "/v1/auth/passkeys/register", json: ["name": "x"], token: ada.accessToken),
                          400, "INVALID_ARGUMENT", field: "credential")
            #expect(try server.passkeys(ada.accessToken).isEmpty)
        }
    }
}
