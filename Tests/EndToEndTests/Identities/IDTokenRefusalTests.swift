import Foundation
import Testing
import TestSupport

extension Identities {
    /// Every way an ID token is refused, each with its `reason`, told as what an attacker
    /// (or a broken app) sends.
    @Suite(.serialized) struct Refusals {
        /// An attacker runs their own app registered with Google, signs a victim in there and
        /// replays the victim's token to this server: it names another app as `aud`.
        @Test func aTokenIssuedForAnotherAppIsRefused() throws {
            let idp = try IdentityServer()
            let token = try idp.providers.mint("google", idp.providers.claims("google", subject: "victim", ["aud": "attacker-app"]))
            expectProblem(try idp.signIn("google", token), 401, "IDP_TOKEN_INVALID", reason: "AUDIENCE")
            // One of several audiences that is ours is enough (Apple's web services id, the bundle id).
            let both = try idp.providers.mint("apple", idp.providers.claims("apple", subject: "001.v", ["aud": ["other", IdentityServer.appleWebClientID]]))
            #expect(try idp.signIn("apple", both).status == 201)
        }

        /// A token from another issuer, signed with the provider's real key (a provider that
        /// shares keys across tenants): the issuer is checked byte for byte.
        @Test func aTokenOfAnotherIssuerIsRefused() throws {
            let idp = try IdentityServer()
            for issuer in [idp.providers.googleIssuer + "/", idp.providers.googleIssuer.uppercased(), "https://evil.example"] {
                let token = try idp.providers.mint("google", idp.providers.claims("google", subject: "g-1", ["iss": issuer]))
                expectProblem(try idp.signIn("google", token), 401, "IDP_TOKEN_INVALID", reason: "ISSUER", issuer)
            }
        }

        /// A token stolen long ago (from a log, a backup) is replayed after it expired; one
        /// made for the future is no better.
        @Test func anExpiredOrFutureTokenIsRefused() throws {
            let idp = try IdentityServer()
            let now = Int(Date().timeIntervalSince1970)
            for (name, changes) in [("expired", ["exp": now - 120]), ("issued later", ["iat": now + 600]), ("not before later", ["nbf": now + 600])] {
                let token = try idp.providers.mint("apple", idp.providers.claims("apple", subject: "001.t", changes))
                expectProblem(try idp.signIn("apple", token), 401, "IDP_TOKEN_INVALID", reason: "EXPIRED", name)
            }
        }

        /// An attacker who captured a victim's token from another sign-in (bound to that
        /// sign-in's nonce) replays it with a nonce of their own, or with none at all.
        @Test func aTokenBoundToAnotherNonceIsRefused() throws {
            let idp = try IdentityServer()
            let token = try idp.providers.mint("google", idp.providers.claims("google", subject: "victim", ["nonce": "victims-nonce"]))
            expectProblem(try idp.signIn("google", token, nonce: "attackers-nonce"), 401, "IDP_TOKEN_INVALID", reason: "NONCE")
            expectProblem(try idp.signIn("google", token), 401, "IDP_TOKEN_INVALID", reason: "NONCE", "a token carrying a nonce needs the body's")
            let unbound = try idp.providers.mint("google", idp.providers.claims("google", subject: "victim"))
            expectProblem(try idp.signIn("google", unbound, nonce: "fresh"), 401, "IDP_TOKEN_INVALID", reason: "NONCE", "the app asked for a nonce the token lacks")
            #expect(try idp.signIn("google", token, nonce: "victims-nonce").status == 201)
        }

        /// A forger without the provider's private key: an unsigned token (`alg: none`), and
        /// an HS256 token keyed with the provider's public key (the classic confusion of a
        /// verifier that lets the token choose its algorithm).
        @Test func anUnsignedOrHMACTokenIsRefused() throws {
            let idp = try IdentityServer()
            let claims = idp.providers.claims("apple", subject: "001.victim", email: "victim@example.com")
            let unsigned = try idp.providers.mint("apple", claims, alg: "none")
            expectProblem(try idp.signIn("apple", unsigned), 401, "IDP_TOKEN_INVALID", reason: "MALFORMED", "no signature at all")
            expectProblem(try idp.signIn("apple", unsigned + "AAAA"), 401, "IDP_TOKEN_INVALID", reason: "SIGNATURE", "alg none with bytes")
            expectProblem(try idp.signIn("apple", try idp.providers.mint("apple", claims, alg: "HS256")), 401, "IDP_TOKEN_INVALID", reason: "SIGNATURE")
            expectProblem(try idp.signIn("apple", "not-a-jwt"), 401, "IDP_TOKEN_INVALID", reason: "MALFORMED")
            let noSubject = try idp.providers.mint("apple", idp.providers.claims("apple", subject: "x", ["sub": NSNull()]))
            expectProblem(try idp.signIn("apple", noSubject), 401, "IDP_TOKEN_INVALID", reason: "MALFORMED", "no sub")
            #expect(try StoredRows(idp.server).row("SELECT count(*) FROM users") { $0.int(at: 0) } == 0, "no account was made")
        }

        /// A token of Apple's presented as Google's: Google's issuer and keys refuse it.
        @Test func oneProvidersTokenIsNotAnothers() throws {
            let idp = try IdentityServer()
            let token = try idp.providers.mint("apple", idp.providers.claims("apple", subject: "001.a", ["aud": IdentityServer.googleClientID]))
            expectProblem(try idp.signIn("google", token), 401, "IDP_TOKEN_INVALID", reason: "SIGNATURE")
        }

        /// A discovery document that names another issuer (a misconfigured or hijacked
        /// endpoint) is not believed: no keys, and with none cached, 503.
        @Test func aDiscoveryDocumentOfAnotherIssuerIsNotBelieved() throws {
            let idp = try IdentityServer()
            try idp.providers.set("google", ["discoveryIssuer": "https://evil.example"])
            let token = try idp.providers.mint("google", idp.providers.claims("google", subject: "g-1"))
            expectProblem(try idp.signIn("google", token), 503, "IDP_UNAVAILABLE")
            #expect(try idp.providers.jwksFetches("google") == 0, "the key set it names is never fetched")
        }
    }
}
