import Foundation
import Glibc
import Testing
import TestSupport

/// `accessTokenAlgorithm` ES256: access tokens an app's own backend verifies with the keys
/// at `/.well-known/jwks.json`, without the signing secret, across `latchkey keys rotate`
/// and `retire`; and the forgeries such a key set invites, refused by the server.
@Suite struct TokenPublicationTests {
    static let es256 = ["--access-token-algorithm", "ES256"]

    /// The resource server of Tests/Tools: one verdict per token, `sub` or the error's class.
    static func verifiedElsewhere(_ server: AccountServer, _ tokens: [String]) throws -> [[String: String]] {
        let output = try runPythonTool(
            "jwks_resource_server.py", arguments: [server.publicURL + "/.well-known/jwks.json", server.issuer, "latchkey"] + tokens
        )
        return try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        }
    }

    static func publishedKIDs(_ server: AccountServer) throws -> [String] {
        let response = try server.call("GET", "/.well-known/jwks.json")
        #expect(response.status == 200)
        let keys = try #require(response["keys"] as? [[String: Any]])
        return keys.compactMap { $0["kid"] as? String }
    }

    /// Polls `condition` every 100 ms for up to `seconds`.
    static func eventually(within seconds: Int = 6, _ condition: () throws -> Bool) rethrows -> Bool {
        for _ in 0..<(seconds * 10) {
            if try condition() { return true }
            usleep(100_000)
        }
        return false
    }

    @Test func withHS256NeitherWellKnownDocumentExists() throws {
        let server = try AccountServer()
        defer { server.stop() }
        expectProblem(try server.call("GET", "/.well-known/jwks.json"), 404, "NOT_FOUND")
        expectProblem(try server.call("GET", "/.well-known/openid-configuration"), 404, "NOT_FOUND")
    }

    @Test func theDiscoveryDocumentNamesTheIssuerAndTheKeySet() throws {
        let server = try AccountServer(Self.es256, signingKeys: AccountServer.keyFileInDataDirectory)
        defer { server.stop() }
        let discovery = try server.call("GET", "/.well-known/openid-configuration")
        #expect(discovery.status == 200)
        #expect(discovery.header("Content-Type") == "application/json")
        #expect(discovery["issuer"] as? String == server.issuer)
        #expect(discovery["jwks_uri"] as? String == server.publicURL + "/.well-known/jwks.json")
        #expect(discovery["id_token_signing_alg_values_supported"] as? [String] == ["ES256"])

        let jwks = try server.call("GET", "/.well-known/jwks.json")
        #expect(jwks.header("Cache-Control") == "public, max-age=300")
        let key = try #require((jwks["keys"] as? [[String: Any]])?.first)
        #expect(key["kty"] as? String == "EC" && key["crv"] as? String == "P-256" && key["alg"] as? String == "ES256" && key["use"] as? String == "sig")
        #expect((key["x"] as? String).flatMap(JWTParts.base64URLDecode)?.count == 32)
        #expect(key["d"] == nil, "the private scalar is never published")
    }

    /// A backend holding no secret verifies Ada's token with the published key; after a
    /// rotation her older token still verifies beside a new one of the new key; after the
    /// old key is retired the server refuses its token at once, but the key stays
    /// published until that token has expired (a backend may still be holding it), and
    /// then it is gone.
    @Test func aResourceServerVerifiesTokensAcrossRotationAndRetirement() throws {
        let ttl = 12
        let server = try AccountServer(Self.es256 + ["--access-token-ttl", "\(ttl)"], signingKeys: AccountServer.keyFileInDataDirectory)
        defer { server.stop() }
        let data = ["--data-dir", server.dataDirectory, "--access-token-algorithm", "ES256", "--access-token-ttl", "\(ttl)"]
        let ada = try server.signUp("ada@example.com", "ada")
        let first = try #require(JWTParts(ada.accessToken))
        #expect(first.header["alg"] as? String == "ES256")
        let oldKID = try #require(first.header["kid"] as? String)
        #expect(try Self.publishedKIDs(server) == [oldKID])
        #expect(try Self.verifiedElsewhere(server, [ada.accessToken]) == [["sub": ada.id, "kid": oldKID]])

        #expect(try Accounts.AdminCommands.run(["keys", "rotate"] + data).status == 0)
        var newToken = ""
        #expect(try Self.eventually {
            newToken = try server.logIn("ada@example.com").accessToken
            return JWTParts(newToken)?.header["kid"] as? String != oldKID
        }, "new tokens carry the new kid")
        let newKID = try #require(JWTParts(newToken)?.header["kid"] as? String)
        #expect(try Self.publishedKIDs(server) == [newKID, oldKID])
        #expect(try Self.verifiedElsewhere(server, [ada.accessToken, newToken]) == [["sub": ada.id, "kid": oldKID], ["sub": ada.id, "kid": newKID]])

        #expect(try Accounts.AdminCommands.run(["keys", "retire", oldKID] + data).status == 0)
        #expect(try Self.eventually { try server.me(ada.accessToken).status == 401 }, "the server refuses the retired key's token")
        #expect(try Self.publishedKIDs(server) == [newKID, oldKID], "still published while its tokens live")
        #expect(try Self.verifiedElsewhere(server, [ada.accessToken]) == [["sub": ada.id, "kid": oldKID]])

        #expect(try Self.eventually(within: ttl + 4) { try Self.publishedKIDs(server) == [newKID] }, "gone once its last token expired")
        #expect(try Self.verifiedElsewhere(server, [ada.accessToken]) == [["error": "PyJWKClientError"]])
        let fresh = try server.logIn("ada@example.com").accessToken
        #expect(try Self.verifiedElsewhere(server, [fresh]) == [["sub": ada.id, "kid": newKID]])
    }

    /// Tokens signed with the HMAC key before the switch to ES256 keep working until they
    /// expire; new ones are ES256, with a P-256 key generated beside the configured ones.
    @Test func hs256TokensIssuedBeforeTheSwitchStillVerify() throws {
        let before = try AccountServer()
        let ada = try before.signUp("ada@example.com", "ada")
        #expect(JWTParts(ada.accessToken)?.header["alg"] as? String == "HS256")
        let after = try before.restarted(Self.es256)
        defer { after.stop() }
        #expect(try after.me(ada.accessToken).status == 200)
        let token = try after.logIn("ada@example.com").accessToken
        let header = try #require(JWTParts(token)?.header)
        #expect(header["alg"] as? String == "ES256")
        #expect(try Self.publishedKIDs(after) == [try #require(header["kid"] as? String)])
        #expect(try after.me(token).status == 200)
        #expect(try Self.verifiedElsewhere(after, [token]).first?["sub"] == ada.id)
    }
}
