import AuthCrypto
import Foundation
import Testing
import TestSupport

/// The P-256 signer: what it signs verifies with the public key as a JWKS publishes it,
/// its PEM reads back as the same key, and keys and signatures cross to and from Python's
/// `cryptography` and PyJWT (Apple's `.p8` files are PKCS#8 PEM of this kind).
@Suite struct P256PrivateKeyTests {
    static let claims = TestClaims(sub: "user-9", exp: 4_102_444_800, aud: "latchkey")

    static func jwk(_ key: P256PrivateKey, _ keyID: String) throws -> JSONWebKey {
        try JSONWebKey.p256(x: key.publicX, y: key.publicY, keyID: keyID)
    }

    @Test func aTokenItSignsVerifiesWithItsPublicKey() throws {
        let key = P256PrivateKey.generate()
        #expect(key.publicX.count == 32 && key.publicY.count == 32)
        let token = JWT.signES256(Self.claims.flat, key: key, keyID: "es-1")
        let payload = try JWT.verifiedPayload(token, keys: [try Self.jwk(key, "es-1")])
        #expect(try JSONDecoder().decode(TestClaims.self, from: Data(payload)) == Self.claims)
        #expect(Fixtures.headerJSON(of: token) == #"{"alg":"ES256","kid":"es-1","typ":"JWT"}"#)
        #expect(token.split(separator: ".").last.flatMap { Base64URL.decode(String($0)) }?.count == 64, "JOSE r||s, not DER")
    }

    @Test func aTokenIsRefusedByAnotherKeysPublicKey() throws {
        let token = JWT.signES256(Self.claims.flat, key: P256PrivateKey.generate(), keyID: "es-1")
        #expect(throws: JWTError.badSignature) {
            try JWT.verifiedPayload(token, keys: [try Self.jwk(P256PrivateKey.generate(), "es-1")])
        }
    }

    /// A key id is written as a JSON string, escaped, whatever it holds.
    @Test func theKeyIDIsEscapedInTheHeader() throws {
        let token = JWT.signES256(payload: Array(#"{"exp":1}"#.utf8), key: P256PrivateKey.generate(), keyID: #"a"b"#)
        #expect(Fixtures.headerJSON(of: token) == #"{"alg":"ES256","kid":"a\"b","typ":"JWT"}"#)
    }

    @Test func itsPEMReadsBackAsTheSameKey() throws {
        let key = P256PrivateKey.generate()
        let pem = key.pkcs8PEM
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let read = try P256PrivateKey(pem: pem)
        #expect(read.publicX == key.publicX && read.publicY == key.publicY)
        let token = JWT.signES256(Self.claims.flat, key: read, keyID: "es-1")
        #expect(throws: Never.self) { try JWT.verifiedPayload(token, keys: [try Self.jwk(key, "es-1")]) }
    }

    @Test func descriptionsShowNothingOfTheKey() {
        let key = P256PrivateKey.generate()
        #expect("\(key)" == "P256PrivateKey(<redacted>)")
        #expect(String(reflecting: key) == "P256PrivateKey(<redacted>)")
    }

    /// An Apple-style `.p8` (PKCS#8) and a SEC1 key made by `cryptography` load; what we
    /// sign with them PyJWT verifies with their public key, and what PyJWT signs with them
    /// we verify with ours.
    @Test(arguments: ["PKCS8", "TraditionalOpenSSL"])
    func aKeyMadeByPythonSignsTokensPyJWTAccepts(_ format: String) throws {
        let pem = try runPython("""
            import sys
            from cryptography.hazmat.primitives import serialization
            from cryptography.hazmat.primitives.asymmetric import ec
            key = ec.generate_private_key(ec.SECP256R1())
            print(key.private_bytes(serialization.Encoding.PEM, getattr(serialization.PrivateFormat, sys.argv[1]), serialization.NoEncryption()).decode())
            """, arguments: [format])
        #expect(pem.hasPrefix(format == "PKCS8" ? "-----BEGIN PRIVATE KEY-----" : "-----BEGIN EC PRIVATE KEY-----"))
        let key = try P256PrivateKey(pem: pem)
        let ours = JWT.signES256(Self.claims.flat, key: key, keyID: "ABC123DEFG")

        let output = try runPython("""
            import json, sys
            import jwt
            from cryptography.hazmat.primitives import serialization
            key = serialization.load_pem_private_key(sys.argv[2].encode(), password=None)
            claims = jwt.decode(sys.argv[1], key.public_key(), algorithms=["ES256"], audience="latchkey")
            print(json.dumps({"header": jwt.get_unverified_header(sys.argv[1]), "claims": claims}))
            print(jwt.encode({"sub": "from-python", "exp": 4102444800}, key, algorithm="ES256", headers={"kid": "py"}))
            """, arguments: [ours, pem])
        let lines = output.split(separator: "\n").map(String.init)
        try #require(lines.count == 2)
        let decoded = try JSONDecoder().decode(PyJWTES256Result.self, from: Data(lines[0].utf8))
        #expect(decoded.claims == Self.claims)
        #expect(decoded.header == ["alg": "ES256", "kid": "ABC123DEFG", "typ": "JWT"])

        let payload = try JWT.verifiedPayload(lines[1], keys: [try Self.jwk(key, "py")])
        #expect(try JSONDecoder().decode(TestClaims.self, from: Data(payload)).sub == "from-python")
    }

    @Test func otherCurvesAndKeyTypesAreRefused() throws {
        let pems = try runPython("""
            import json
            from cryptography.hazmat.primitives import serialization
            from cryptography.hazmat.primitives.asymmetric import ec, rsa, ed25519
            def pem(key): return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
            p384 = ec.generate_private_key(ec.SECP384R1())
            print(json.dumps({
                "p384": pem(p384),
                "p384SEC1": p384.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption()).decode(),
                "rsa": pem(rsa.generate_private_key(public_exponent=65537, key_size=2048)),
                "ed25519": pem(ed25519.Ed25519PrivateKey.generate()),
                "encrypted": ec.generate_private_key(ec.SECP256R1()).private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.BestAvailableEncryption(b"pass")).decode(),
                "public": p384.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode(),
            }))
            """)
        let keys = try JSONDecoder().decode([String: String].self, from: Data(pems.utf8))
        for name in ["p384", "p384SEC1", "rsa", "ed25519"] {
            #expect(throws: P256KeyError.unsupportedCurve, "\(name)") { try P256PrivateKey(pem: keys[name]!) }
        }
        #expect(throws: P256KeyError.unsupportedFormat) { try P256PrivateKey(pem: keys["encrypted"]!) }
        #expect(throws: P256KeyError.unsupportedFormat) { try P256PrivateKey(pem: keys["public"]!) }
    }

    @Test func textThatIsNotAKeyIsRefused() {
        #expect(throws: P256KeyError.malformed) { try P256PrivateKey(pem: "") }
        #expect(throws: P256KeyError.malformed) { try P256PrivateKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n") }
        #expect(throws: P256KeyError.malformed) { try P256PrivateKey(pem: String(repeating: "A", count: 20_000)) }
    }
}

private struct PyJWTES256Result: Decodable {
    let header: [String: String]
    let claims: TestClaims
}
