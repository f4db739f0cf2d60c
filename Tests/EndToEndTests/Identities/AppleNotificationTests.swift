import Foundation
import Testing
import TestSupport

extension Identities {
    /// `POST /v1/auth/idp/apple/notifications`: the test plays Apple, signing each
    /// server-to-server notification with the fake Apple's key, as Apple signs them.
    @Suite(.serialized) struct AppleNotifications {
        /// Apple's claims for a notification of `type` about `subject`: `events` is a JSON
        /// object inside a string, as Apple sends it. `changes` replace or (NSNull) remove claims.
        static func claims(_ idp: IdentityServer, _ type: String, subject: String, _ changes: [String: Any] = [:]) throws -> [String: Any] {
            let now = Int(Date().timeIntervalSince1970)
            let events = String(decoding: try JSONSerialization.data(withJSONObject: [
                "type": type, "sub": subject, "email": "relay@privaterelay.appleid.com", "is_private_email": "true", "event_time": now * 1000,
            ]), as: UTF8.self)
            var claims: [String: Any] = [
                "iss": idp.providers.appleIssuer, "aud": IdentityServer.appleClientID, "iat": now, "exp": now + 600,
                "jti": UUID().uuidString, "events": events,
            ]
            for (key, value) in changes { claims[key] = value is NSNull ? nil : value }
            return claims
        }

        func notify(_ idp: IdentityServer, _ payload: String) throws -> JSONResponse {
            try idp.server.call("POST", "/v1/auth/idp/apple/notifications", json: ["payload": payload])
        }

        func notify(_ idp: IdentityServer, _ type: String, subject: String) throws -> JSONResponse {
            try notify(idp, try idp.providers.mint("apple", Self.claims(idp, type, subject: subject)))
        }

        /// An account with a password and Apple linked (with Apple's token kept).
        func adaWithApple(_ idp: IdentityServer) throws -> Account {
            let ada = try idp.server.signUp("ada@example.com", "ada")
            let token = try idp.providers.mint("apple", idp.providers.claims("apple", subject: "001.ada"))
            let linked = try idp.server.call("POST", "/v1/auth/identities/apple", json: ["idToken": token, "authorizationCode": "001.ada~c"], token: ada.accessToken)
            #expect(linked.status == 201, "\(linked)")
            return ada
        }

        func count(_ sql: String, _ userID: String, _ idp: IdentityServer) throws -> Int {
            try StoredRows(idp.server).count(sql, userID)
        }

        @Test(arguments: ["consent-revoked", "account-delete"])
        func anAccountWithAPasswordLosesItsAppleIdentityAndSessions(type: String) throws {
            let idp = try IdentityServer(appleServer: true)
            let ada = try adaWithApple(idp)
            #expect(try count("SELECT count(*) FROM apple_refresh_tokens WHERE user_id = ?", ada.id, idp) == 1)
            let response = try notify(idp, type, subject: "001.ada")
            #expect(response.status == 200, "\(response)")
            expectProblem(try idp.server.me(ada.accessToken), 401, "SESSION_REVOKED", "her sessions ended")
            #expect(try count("SELECT count(*) FROM identities WHERE user_id = ?", ada.id, idp) == 0, "Apple is unlinked")
            #expect(try count("SELECT count(*) FROM apple_refresh_tokens WHERE user_id = ?", ada.id, idp) == 0, "the token is dropped")
            #expect(try count("SELECT count(*) FROM apple_revocations WHERE user_id = ?", ada.id, idp) == 0, "and not revoked: Apple ended it")
            #expect(try idp.auditCount("identity_revoked", of: ada.id) == 1)
            _ = try idp.server.logIn("ada@example.com")  // the account and its password stay (throws otherwise)
            // Apple sends it again: nothing more happens.
            #expect(try notify(idp, type, subject: "001.ada").status == 200)
            #expect(try idp.auditCount("identity_revoked", of: ada.id) == 1)
        }

        @Test(arguments: ["consent-revoked", "account-delete"])
        func anAccountWithNoOtherWayInIsDeleted(type: String) throws {
            let idp = try IdentityServer(appleServer: true)
            let grace = try idp.signedIn("apple", subject: "001.grace", email: "grace@example.com", expecting: 201)
            let id = try #require(grace.user["id"] as? String)
            #expect(try notify(idp, type, subject: "001.grace").status == 200)
            expectProblem(try idp.server.me(grace.token), 401, "SESSION_REVOKED")
            #expect(try StoredRows(idp.server).rowsOfUser(id).values.allSatisfy { $0 == 0 }, "the account is gone")
            #expect(try idp.auditCount("account_deleted", of: id) == 1)
            #expect(try notify(idp, type, subject: "001.grace").status == 200, "a replay is harmless")
            // The same Apple ID signing in again starts afresh.
            #expect(try idp.signedIn("apple", subject: "001.grace", expecting: 201).user["id"] as? String != id)
        }

        @Test func emailRelayChangesAreAudited() throws {
            let idp = try IdentityServer(appleServer: true)
            let ada = try adaWithApple(idp)
            #expect(try notify(idp, "email-disabled", subject: "001.ada").status == 200)
            #expect(try idp.auditCount("identity_email_disabled", of: ada.id) == 1)
            #expect(try notify(idp, "email-enabled", subject: "001.ada").status == 200)
            #expect(try idp.auditCount("identity_email_enabled", of: ada.id) == 1)
            #expect(try idp.server.me(ada.accessToken).status == 200, "nothing else changes")
        }

        @Test func anUnknownUserOrTypeIsAcknowledged() throws {
            let idp = try IdentityServer()
            #expect(try notify(idp, "consent-revoked", subject: "001.nobody").status == 200)
            #expect(try notify(idp, "some-future-type", subject: "001.nobody").status == 200)
            expectProblem(try idp.server.call("POST", "/v1/auth/idp/apple/notifications", json: [:]), 400, "INVALID_ARGUMENT", field: "payload")
        }

        /// Mallory wants Ada's account gone (or at least Ada signed out and her Apple sign-in
        /// unlinked). The route has no authentication header, so she posts notifications of
        /// her own making: signed with a key that is not Apple's, a genuine-looking one for
        /// another app, one long expired, and one with no signature at all. Each is refused
        /// 400 IDP_TOKEN_INVALID with its reason, and Ada keeps her sessions and her Apple
        /// sign-in.
        @Test func forgedNotificationsAreRefusedAndChangeNothing() throws {
            let idp = try IdentityServer(appleServer: true)
            let grace = try idp.signedIn("apple", subject: "001.grace", expecting: 201)
            let id = try #require(grace.user["id"] as? String)
            let long = Int(Date().timeIntervalSince1970) - 7200
            let forgeries: [(String, String, String)] = [
                ("a key that is not Apple's", try idp.providers.mint("google", Self.claims(idp, "account-delete", subject: "001.grace")), "SIGNATURE"),
                ("no signature", try idp.providers.mint("apple", Self.claims(idp, "account-delete", subject: "001.grace"), alg: "none"), "MALFORMED"),
                ("another app's", try idp.providers.mint("apple", Self.claims(idp, "account-delete", subject: "001.grace", ["aud": "com.attacker.app"])), "AUDIENCE"),
                ("expired", try idp.providers.mint("apple", Self.claims(idp, "account-delete", subject: "001.grace", ["iat": long, "exp": long + 600])), "EXPIRED"),
            ]
            for (what, payload, reason) in forgeries {
                expectProblem(try notify(idp, payload), 400, "IDP_TOKEN_INVALID", reason: reason, what)
            }
            #expect(try idp.server.me(grace.token).status == 200, "Grace is still signed in")
            #expect(try StoredRows(idp.server).count("SELECT count(*) FROM identities WHERE user_id = ?", id) == 1, "Apple is still linked")
            #expect(try idp.auditCount("identity_revoked", of: id) == 0)
        }
    }
}
