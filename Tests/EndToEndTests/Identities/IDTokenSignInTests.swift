import Foundation
import Testing
import TestSupport

extension Identities {
    /// `POST /v1/auth/idp/{provider}`: accounts made and found by a provider's ID token.
    @Suite(.serialized) struct SignIn {
        @Test func aFirstSignInMakesAnAccountWithTheTokensAddressAndNoName() throws {
            let idp = try IdentityServer()
            let response = try idp.signIn("apple", try idp.providers.mint("apple", idp.providers.claims("apple", subject: "001.ada", email: "Ada@Example.com", verified: "true")))
            #expect(response.status == 201, "\(response)")
            let user = try #require(response["user"] as? [String: Any])
            #expect(user["email"] as? String == "Ada@Example.com", "kept as the provider spelled it, as signup keeps it")
            #expect(user["emailVerified"] as? Bool == true, "Apple's \"true\" string is true")
            #expect(user["displayName"] is NSNull, "a provider's name is never claimed")
            #expect(response.header("Cache-Control") == "no-store")
            let token = try #require(response["accessToken"] as? String)
            #expect(JWTParts(token)?.payload["amr"] as? [String] == ["fed"])
            let id = try #require(user["id"] as? String)
            let presence = try idp.server.call("GET", "/v1/presence/\(id)", token: token)
            #expect(presence["status"] as? String == "online")
        }

        @Test func aReturningUserIsFoundByTheProvidersSubject() throws {
            let idp = try IdentityServer()
            let first = try idp.signedIn("google", subject: "g-1", email: "grace@example.com", expecting: 201)
            // A later token may carry another address: the subject is who it is.
            let again = try idp.signedIn("google", subject: "g-1", email: "grace@elsewhere.example", expecting: 200)
            #expect(again.user["id"] as? String == first.user["id"] as? String)
            #expect(again.user["email"] as? String == "grace@example.com")
        }

        @Test(arguments: ["ES256", "RS256"])
        func eitherAlgorithmSignsIn(_ alg: String) throws {
            let idp = try IdentityServer()
            let token = try idp.providers.mint("google", idp.providers.claims("google", subject: "g-\(alg)"), alg: alg)
            #expect(try idp.signIn("google", token).status == 201)
        }

        @Test func aTokenWithoutAnAddressMakesAnAccountWithANullEmail() throws {
            let idp = try IdentityServer()
            let signedIn = try idp.signedIn("apple", subject: "001.private", expecting: 201)
            #expect(signedIn.user["email"] is NSNull)
            #expect(signedIn.user["emailVerified"] as? Bool == false)
            let me = try idp.server.me(signedIn.token)
            #expect(me.status == 200 && me["email"] is NSNull, "\(me)")
            #expect(JWTParts(signedIn.token)?.payload.keys.contains("email") == false, "no email claim without an address")
            // Nothing to verify and no mail to send: the same answer, nothing queued.
            #expect(try idp.server.call("POST", "/v1/auth/verify-email", token: signedIn.token).status == 202)
            #expect(try StoredRows(idp.server).row("SELECT count(*) FROM mail_outbox") { $0.int(at: 0) } == 0)
            // A second account without an address is another account.
            #expect(try idp.signedIn("apple", subject: "001.other", expecting: 201).user["id"] as? String != signedIn.user["id"] as? String)
        }

        @Test func aProviderThatIsNotConfiguredIsNotFound() throws {
            let idp = try IdentityServer()
            let token = try idp.providers.mint("google", idp.providers.claims("google", subject: "g-1"))
            expectProblem(try idp.signIn("okta", token), 404, "NOT_FOUND")
        }

        @Test func theKeysThatCannotBeFetchedAnswerUnavailable() throws {
            let idp = try IdentityServer()
            try idp.providers.set("apple", ["failing": true])
            let response = try idp.signIn("apple", try idp.providers.mint("apple", idp.providers.claims("apple", subject: "001.x")))
            expectProblem(response, 503, "IDP_UNAVAILABLE")
            #expect(response.header("Retry-After") != nil)
        }

        @Test func aDisabledAccountIsRefused() throws {
            let idp = try IdentityServer()
            let signedIn = try idp.signedIn("apple", subject: "001.off", expecting: 201)
            let id = try #require(signedIn.user["id"] as? String)
            #expect(try Accounts.AdminCommands.run(["users", "disable", id, "--data-dir", idp.server.dataDirectory]).status == 0)
            let response = try idp.signIn("apple", try idp.providers.mint("apple", idp.providers.claims("apple", subject: "001.off")))
            expectProblem(response, 403, "USER_DISABLED")
        }

        @Test func apple_sHashedNonceIsTheAppsNonce() throws {
            let idp = try IdentityServer()
            let nonce = "raw-nonce-\(UUID().uuidString)"
            let hashed = try runPython("import hashlib,sys; print(hashlib.sha256(sys.argv[1].encode()).hexdigest())", arguments: [nonce])
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let token = try idp.providers.mint("apple", idp.providers.claims("apple", subject: "001.n", ["nonce": hashed]))
            #expect(try idp.signIn("apple", token, nonce: nonce).status == 201)
            // Google puts the nonce itself in its token; its hash is no match there.
            let google = try idp.providers.mint("google", idp.providers.claims("google", subject: "g-n", ["nonce": hashed]))
            expectProblem(try idp.signIn("google", google, nonce: nonce), 401, "IDP_TOKEN_INVALID", reason: "NONCE")
        }
    }
}
