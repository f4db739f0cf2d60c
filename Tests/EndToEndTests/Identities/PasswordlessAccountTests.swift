import Foundation
import Testing
import TestSupport

extension Identities {
    /// An account made by a provider has no password to confirm a dangerous change with;
    /// a recent sign-in stands in for it (docs/api.md, `RECENT_LOGIN_REQUIRED`).
    @Suite(.serialized) struct PasswordlessAccount {
        /// A provider sign-in: its user id, access token and refresh token.
        private static func signedIn(_ idp: IdentityServer, _ provider: String, subject: String) throws -> (id: String, access: String, refresh: String) {
            let response = try idp.signIn(provider, try idp.providers.mint(provider, idp.providers.claims(provider, subject: subject)))
            guard let id = (response["user"] as? [String: Any])?["id"] as? String, let access = response["accessToken"] as? String,
                  let refresh = response["refreshToken"] as? String else { throw TestError("sign-in of \(subject): \(response)") }
            return (id, access, refresh)
        }

        /// The session of this access token, as if it had signed in `seconds` ago: what a
        /// phone left in a drawer, or a token copied off it, is.
        private static func age(_ idp: IdentityServer, sessionOf accessToken: String, by seconds: Int) throws {
            let sid = try #require(JWTParts(accessToken)?.payload["sid"] as? String)
            try StoredRows.write(idp.server, "UPDATE sessions SET created_at = created_at - \(seconds) WHERE id = ?", sid)
        }

        private static func passkeyServer() throws -> IdentityServer {
            try IdentityServer(["--webauthn-rp-id", PasskeyServer.rpID, "--webauthn-origins", PasskeyServer.origin])
        }

        private static func registerPasskey(_ idp: IdentityServer, _ authenticator: TestAuthenticator, token: String) throws -> String {
            let options = try idp.server.call("POST", "/v1/auth/passkeys/register/options", token: token)
            let challenge = try #require(options["challenge"] as? String, "\(options)")
            let credential = try authenticator.registration(challenge: challenge, rpID: PasskeyServer.rpID, origin: PasskeyServer.origin)
            let registered = try idp.server.call("POST", "/v1/auth/passkeys/register", json: ["credential": credential], token: token)
            #expect(registered.status == 201, "\(registered)")
            return TestAuthenticator.base64URL(authenticator.credentialID)
        }

        /// Mallory copies the refresh token off Ada's phone, which signed in with Apple an
        /// hour ago. Refreshing gives her an access token minted this second, but the
        /// session's sign-in is still an hour old: she cannot delete Ada's account with
        /// `{}`. Ada, signing in with Apple now, can.
        @Test func aStolenOldSessionCannotDeleteAPasswordlessAccountAndAFreshOneCan() throws {
            let idp = try IdentityServer()
            let ada = try Self.signedIn(idp, "apple", subject: "001.ada")
            try Self.age(idp, sessionOf: ada.access, by: 3600)

            let refreshed = try idp.server.refresh(ada.refresh)
            let malloryToken = try #require(refreshed["accessToken"] as? String, "\(refreshed)")
            expectProblem(try idp.server.call("DELETE", "/v1/users/me", json: [:], token: malloryToken), 401, "RECENT_LOGIN_REQUIRED")
            expectProblem(try idp.server.call("DELETE", "/v1/users/me", json: ["password": "guess-1234"], token: malloryToken),
                          401, "RECENT_LOGIN_REQUIRED", "a password proves nothing for an account that has none")
            #expect(try idp.server.me(malloryToken).status == 200, "the account is still there")

            let fresh = try Self.signedIn(idp, "apple", subject: "001.ada")
            #expect(fresh.id == ada.id)
            let deleted = try idp.server.call("DELETE", "/v1/users/me", json: [:], token: fresh.access)
            #expect(deleted.status == 204, "\(deleted)")
            #expect(try StoredRows(idp.server).rowsOfUser(ada.id) == ["users": 0, "display_names": 0, "presence": 0, "sessions": 0])
            #expect(try StoredRows(idp.server).row("SELECT count(*) FROM identities") { $0.int(at: 0) } == 0)
            expectProblem(try idp.server.me(malloryToken), 401, "SESSION_REVOKED")
        }

        /// Five minutes is the line: a session that signed in 4 minutes ago still may, one of
        /// 6 minutes ago may not.
        @Test func theSignInMustBeAtMostFiveMinutesOld() throws {
            let idp = try IdentityServer()
            let old = try Self.signedIn(idp, "google", subject: "g-old")
            try Self.age(idp, sessionOf: old.access, by: 6 * 60)
            expectProblem(try idp.server.call("DELETE", "/v1/users/me", json: [:], token: old.access), 401, "RECENT_LOGIN_REQUIRED")
            let recent = try Self.signedIn(idp, "google", subject: "g-recent")
            try Self.age(idp, sessionOf: recent.access, by: 4 * 60)
            #expect(try idp.server.call("DELETE", "/v1/users/me", json: [:], token: recent.access).status == 204)
        }

        /// An account with a password still confirms with it: an empty body is not enough,
        /// however fresh the session.
        @Test func anAccountWithAPasswordStillNeedsIt() throws {
            let idp = try IdentityServer()
            let ada = try idp.server.signUp("ada@example.com", "ada")
            expectProblem(try idp.server.call("DELETE", "/v1/users/me", json: [:], token: ada.accessToken), 400, "INVALID_ARGUMENT", field: "password")
            #expect(try idp.server.me(ada.accessToken).status == 200)
        }

        /// Mallory holds an old session of Ada's Google-made account and wants to remove the
        /// passkey Ada added, to lock her out of it: refused without a recent sign-in. Ada,
        /// fresh from Google, removes one; her last way in that is not Google stays.
        @Test func aStolenOldSessionCannotDeleteAPasskeyOfAPasswordlessAccount() throws {
            let idp = try Self.passkeyServer()
            let ada = try Self.signedIn(idp, "google", subject: "g-ada")
            let phone = try TestAuthenticator(), laptop = try TestAuthenticator()
            defer { phone.remove(); laptop.remove() }
            let phoneID = try Self.registerPasskey(idp, phone, token: ada.access)
            let laptopID = try Self.registerPasskey(idp, laptop, token: ada.access)
            try Self.age(idp, sessionOf: ada.access, by: 3600)

            expectProblem(try idp.server.call("DELETE", "/v1/auth/passkeys/\(phoneID)", json: [:], token: ada.access), 401, "RECENT_LOGIN_REQUIRED")
            let kept = try idp.server.call("GET", "/v1/auth/passkeys", token: ada.access)
            #expect((kept["passkeys"] as? [Any])?.count == 2, "\(kept)")

            let fresh = try Self.signedIn(idp, "google", subject: "g-ada")
            let deleted = try idp.server.call("DELETE", "/v1/auth/passkeys/\(phoneID)", json: [:], token: fresh.access)
            #expect(deleted.status == 204, "\(deleted)")
            // With Google unlinked, the laptop's passkey is the last way in.
            #expect(try idp.server.call("DELETE", "/v1/auth/identities/google", token: fresh.access).status == 204)
            expectProblem(try idp.server.call("DELETE", "/v1/auth/passkeys/\(laptopID)", json: [:], token: fresh.access), 409, "LAST_SIGN_IN_METHOD")
        }
    }
}
