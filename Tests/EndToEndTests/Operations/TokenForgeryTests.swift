import Foundation
import Testing
import TestSupport

/// With ES256, anyone can fetch the server's public key. Mallory does, and holds a token
/// of her own account (claims she can read and copy), and tries to turn them into a token
/// for Ada's session: each way a JWT library has been fooled before is refused with 401
/// INVALID_TOKEN, while Ada's genuine token keeps working.
@Suite struct TokenForgeryTests {
    @Test func forgeriesBuiltFromThePublishedKeyAreRefused() throws {
        let server = try AccountServer(TokenPublicationTests.es256, signingKeys: AccountServer.keyFileInDataDirectory)
        defer { server.stop() }
        let ada = try server.signUp("ada@example.com", "ada")
        let genuine = try #require(JWTParts(ada.accessToken))
        let kid = try #require(genuine.header["kid"] as? String)
        #expect(try server.me(ada.accessToken).status == 200)

        // 1. `alg: none`, with and without something in the signature's place.
        let unsigned = try JWTParts.segment(["alg": "none", "kid": kid, "typ": "JWT"]) + "." + genuine.encodedPayload
        expectProblem(try server.me(unsigned + "."), 401, "INVALID_TOKEN")
        expectProblem(try server.me(unsigned + "." + genuine.signature), 401, "INVALID_TOKEN")

        // 2. HS256 naming the P-256 key, the public key's bytes as the HMAC secret: the JWK
        //    as published, the uncompressed point, and the bare coordinates.
        let jwks = try server.call("GET", "/.well-known/jwks.json")
        let jwk = try #require((jwks["keys"] as? [[String: Any]])?.first)
        let x = try #require((jwk["x"] as? String).flatMap(JWTParts.base64URLDecode))
        let y = try #require((jwk["y"] as? String).flatMap(JWTParts.base64URLDecode))
        let jwkBytes = try JSONSerialization.data(withJSONObject: jwk, options: [.sortedKeys])
        let point: [UInt8] = Array(x) + Array(y)
        let secrets: [[UInt8]] = [Array(jwkBytes), [0x04] + point, point]
        for secret in secrets {
            let forged = try JWTParts.signed(header: ["alg": "HS256", "kid": kid, "typ": "JWT"], payload: genuine.payload, key: secret)
            expectProblem(try server.me(forged), 401, "INVALID_TOKEN", "an HS256 header never reaches a P-256 key")
        }

        // 3. Mallory's own P-256 key, once naming the server's kid and once a kid of her own.
        let forgedBySelf = try runPython("""
            import json, sys
            import jwt
            from cryptography.hazmat.primitives.asymmetric import ec
            key = ec.generate_private_key(ec.SECP256R1())
            claims = json.loads(sys.argv[1])
            print(jwt.encode(claims, key, algorithm="ES256", headers={"kid": sys.argv[2]}))
            print(jwt.encode(claims, key, algorithm="ES256", headers={"kid": "mallory"}))
            """, arguments: [String(decoding: try JSONSerialization.data(withJSONObject: genuine.payload), as: UTF8.self), kid])
            .split(separator: "\n").map(String.init)
        try #require(forgedBySelf.count == 2)
        expectProblem(try server.me(forgedBySelf[0]), 401, "INVALID_TOKEN", "the server's kid, another key's signature")
        expectProblem(try server.me(forgedBySelf[1]), 401, "INVALID_TOKEN", "a kid the server does not have")

        // 4. Ada's own token with its signature re-encoded as DER, as some libraries write ECDSA.
        let jose = try #require(JWTParts.base64URLDecode(genuine.signature))
        try #require(jose.count == 64)
        func integer(_ bytes: Data) -> [UInt8] {
            var digits = Array(bytes.drop { $0 == 0 })
            if digits.first.map({ $0 & 0x80 != 0 }) ?? true { digits.insert(0, at: 0) }
            return [0x02, UInt8(digits.count)] + digits
        }
        let body = integer(jose.prefix(32)) + integer(jose.suffix(32))
        let der = JWTParts.base64URL(Data([0x30, UInt8(body.count)] + body))
        expectProblem(try server.me(genuine.encodedHeader + "." + genuine.encodedPayload + "." + der), 401, "INVALID_TOKEN")

        #expect(try server.me(ada.accessToken).status == 200, "Ada's genuine token is untouched by all this")
    }
}
