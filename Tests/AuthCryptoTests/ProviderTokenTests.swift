import AuthCrypto
import Foundation
import Testing
import TestSupport

/// ID tokens an OpenID provider signs with its private key (ES256 or RS256), made here by
/// PyJWT with keys from Python's `cryptography`: checked against the provider's public
/// keys as its JWKS publishes them, and refused for every way a forger could try.
@Suite struct ProviderTokenTests {
    /// A provider: an EC and an RSA key with their public JWK parameters, and tokens.
    struct Provider: Decodable {
        let ecX: String, ecY: String, rsaN: String, rsaE: String
        let es256: String, rs256: String, es256NoKid: String, none: String
        let es256OtherKey: String, es256Crit: String
    }

    static let provider: Provider = {
        let script = #"""
        import base64, json, jwt
        from cryptography.hazmat.primitives.asymmetric import ec, rsa
        def b64(n, length): return base64.urlsafe_b64encode(n.to_bytes(length, "big")).rstrip(b"=").decode()
        ec_key = ec.generate_private_key(ec.SECP256R1()); other = ec.generate_private_key(ec.SECP256R1())
        rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        ec_pub = ec_key.public_key().public_numbers(); rsa_pub = rsa_key.public_key().public_numbers()
        claims = {"iss": "https://accounts.example", "aud": ["app-ios", "app-web"], "sub": "001", "exp": 4102444800, "email_verified": "true"}
        header = base64.urlsafe_b64encode(json.dumps({"alg": "none", "kid": "ec1"}).encode()).rstrip(b"=").decode()
        body = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
        print(json.dumps({
            "ecX": b64(ec_pub.x, 32), "ecY": b64(ec_pub.y, 32), "rsaN": b64(rsa_pub.n, 256), "rsaE": b64(rsa_pub.e, 3),
            "es256": jwt.encode(claims, ec_key, algorithm="ES256", headers={"kid": "ec1"}),
            "rs256": jwt.encode(claims, rsa_key, algorithm="RS256", headers={"kid": "rsa1"}),
            "es256NoKid": jwt.encode(claims, ec_key, algorithm="ES256"),
            "es256OtherKey": jwt.encode(claims, other, algorithm="ES256", headers={"kid": "ec1"}),
            "es256Crit": jwt.encode(claims, ec_key, algorithm="ES256", headers={"kid": "ec1", "crit": ["exp"]}),
            "none": header + "." + body + ".",
        }))
        """#
        let output = try! runPython(script)
        return try! JSONDecoder().decode(Provider.self, from: Data(output.utf8))
    }()

    static func bytes(_ base64url: String) -> [UInt8] {
        var text = base64url.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Array(Data(base64Encoded: text)!)
    }

    static func keys() throws -> [JSONWebKey] {
        let provider = Self.provider
        return [
            try JSONWebKey.p256(x: bytes(provider.ecX), y: bytes(provider.ecY), keyID: "ec1"),
            try JSONWebKey.rsa(modulus: bytes(provider.rsaN), exponent: bytes(provider.rsaE), keyID: "rsa1"),
        ]
    }

    @Test(arguments: ["es256", "rs256"])
    func aTokenSignedByTheProvidersKeyGivesItsClaims(_ algorithm: String) throws {
        let token = algorithm == "es256" ? Self.provider.es256 : Self.provider.rs256
        let payload = try JWT.verifiedPayload(token, keys: try Self.keys())
        let claims = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
        #expect(claims["sub"] as? String == "001")
        #expect(claims["aud"] as? [String] == ["app-ios", "app-web"], "an array audience reaches the caller whole")
    }

    /// Without a `kid`, the one key of the token's algorithm is used.
    @Test func aTokenWithoutAKeyIDUsesTheOnlyKeyOfItsAlgorithm() throws {
        #expect(throws: Never.self) { try JWT.verifiedPayload(Self.provider.es256NoKid, keys: try Self.keys()) }
    }

    /// A forger signs with a key of their own and names the provider's `kid`.
    @Test func aTokenSignedByAnotherKeyIsRefused() throws {
        #expect(throws: JWTError.badSignature) { try JWT.verifiedPayload(Self.provider.es256OtherKey, keys: try Self.keys()) }
    }

    /// `alg: none`, and a claim set altered after signing.
    @Test func anUnsignedOrAlteredTokenIsRefused() throws {
        #expect(throws: JWTError.malformed, "no signature segment") { try JWT.verifiedPayload(Self.provider.none, keys: try Self.keys()) }
        #expect(throws: JWTError.unsupportedAlgorithm) { try JWT.verifiedPayload(Self.provider.none + "AAAA", keys: try Self.keys()) }
        let parts = Self.provider.es256.split(separator: ".").map(String.init)
        let forged = parts[1].dropLast(2) + (parts[1].hasSuffix("AA") ? "AB" : "AA")
        #expect(throws: JWTError.badSignature) { try JWT.verifiedPayload("\(parts[0]).\(forged).\(parts[2])", keys: try Self.keys()) }
    }

    /// The classic confusion: the header says HS256 so that the provider's public key,
    /// which anyone can fetch, would be used as an HMAC secret. Never: the algorithm must
    /// be ES256 or RS256 and match the key.
    @Test func anHMACTokenIsNeverCheckedWithAPublicKey() throws {
        let parts = Self.provider.es256.split(separator: ".").map(String.init)
        let header = Data(#"{"alg":"HS256","kid":"ec1"}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        #expect(throws: JWTError.unsupportedAlgorithm) { try JWT.verifiedPayload("\(header).\(parts[1]).\(parts[2])", keys: try Self.keys()) }
        let rsaHeaderOnEC = Data(#"{"alg":"RS256","kid":"ec1"}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        #expect(throws: JWTError.unknownKey, "a kid of another algorithm's key") {
            try JWT.verifiedPayload("\(rsaHeaderOnEC).\(parts[1]).\(parts[2])", keys: try Self.keys())
        }
    }

    @Test func aCriticalHeaderIsRefused() throws {
        #expect(throws: JWTError.unsupportedAlgorithm) { try JWT.verifiedPayload(Self.provider.es256Crit, keys: try Self.keys()) }
    }

    @Test func aKeyIDTheProviderDoesNotPublishIsUnknown() throws {
        let onlyRSA = [try Self.keys()[1]]
        #expect(throws: JWTError.unknownKey) { try JWT.verifiedPayload(Self.provider.es256, keys: onlyRSA) }
    }
}
