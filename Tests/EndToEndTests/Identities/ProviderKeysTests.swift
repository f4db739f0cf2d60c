import Foundation
import Testing
import TestSupport

extension Identities {
    /// The providers' keys: cached, fetched again once for a `kid` the cache lacks, and
    /// never fetched in a flood.
    @Suite(.serialized) struct Keys {
        @Test func keysAreFetchedOnceAndKeptForTheirLifetime() throws {
            let idp = try IdentityServer()
            for index in 0..<5 { _ = try idp.signedIn("apple", subject: "001.\(index)", expecting: 201) }
            #expect(try idp.providers.jwksFetches("apple") == 1)
        }

        /// The provider rotates its keys: the first token signed by the new key makes the
        /// server fetch the set again, once, and the sign-in goes through.
        @Test func aKeyThatRotatesAtTheProviderIsFetchedOnce() throws {
            let idp = try IdentityServer()
            _ = try idp.signedIn("google", subject: "g-1", expecting: 201)
            try idp.providers.rotate("google")
            _ = try idp.signedIn("google", subject: "g-1", expecting: 200)
            _ = try idp.signedIn("google", subject: "g-2", expecting: 201)
            #expect(try idp.providers.jwksFetches("google") == 2)
        }

        /// An attacker sends tokens naming made-up `kid`s, hoping each makes the server fetch
        /// Apple's keys (to get this server rate-limited by Apple, or to load it): one fetch
        /// per interval at most, and every such token is refused.
        @Test func aFloodOfUnknownKeyIDsFetchesAtMostOnce() throws {
            let idp = try IdentityServer()
            _ = try idp.signedIn("apple", subject: "001.a", expecting: 201)
            let claims = idp.providers.claims("apple", subject: "001.a")
            for index in 0..<20 {
                let token = try idp.providers.mint("apple", claims, kid: "made-up-\(index)")
                expectProblem(try idp.signIn("apple", token), 401, "IDP_TOKEN_INVALID", reason: "SIGNATURE")
            }
            #expect(try idp.providers.jwksFetches("apple") == 2, "the first unknown kid fetched again; the rest waited for the interval")
            // A concurrent flood shares that budget too.
            let tokens = try (0..<8).map { try idp.providers.mint("apple", claims, kid: "burst-\($0)") }
            let port = idp.server.port
            let answers = concurrently(tokens.count) { index in
                try? TestSupport.call(port: port, "POST", "/v1/auth/idp/apple", body: .json(["idToken": tokens[index]])).status
            }
            #expect(answers.allSatisfy { $0 == 401 })
            #expect(try idp.providers.jwksFetches("apple") == 2)
        }

        /// The provider goes down after its keys were fetched: the cached keys still serve.
        @Test func cachedKeysServeWhileTheProviderIsDown() throws {
            let idp = try IdentityServer()
            _ = try idp.signedIn("apple", subject: "001.a", expecting: 201)
            try idp.providers.set("apple", ["failing": true])
            _ = try idp.signedIn("apple", subject: "001.a", expecting: 200)
        }
    }
}
