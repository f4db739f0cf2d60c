import AuthCrypto
import FlatJSON
import Foundation
import Testing

/// The claims these tests sign, as the server's own claim sets are: flat JSON.
struct TestClaims: Codable, Equatable {
    /// A verified payload that lacks a claim the test expects.
    struct Missing: Error {}

    var sub: String
    var exp: Int64
    var aud: String? = nil
    var role: String? = nil

    init(sub: String, exp: Int64, aud: String? = nil, role: String? = nil) {
        (self.sub, self.exp, self.aud, self.role) = (sub, exp, aud, role)
    }

    init(_ object: FlatJSONObject) throws {
        guard let sub = object.string("sub"), let exp = object.integer("exp") else { throw Missing() }
        self.init(sub: sub, exp: exp, aud: object.string("aud"), role: object.string("role"))
    }

    var flat: FlatJSONObject {
        var values: [ExactBytes: FlatJSONObject.Value] = ["sub": .string(sub), "exp": .integer(exp)]
        if let aud { values["aud"] = .string(aud) }
        if let role { values["role"] = .string(role) }
        return FlatJSONObject(values)
    }
}

/// Keys and a hand-rolled token builder for attacks `JWT.sign` would never produce.
enum Fixtures {
    static let secret1 = Array("0123456789abcdef0123456789abcdef".utf8)
    static let secret2 = Array("fedcba9876543210fedcba9876543210-rotated".utf8)
    static let now: Int64 = 1_700_000_000

    static func key(_ id: String, _ secret: [UInt8]) -> SigningKey {
        // Both fixtures are valid keys; a throw here is a broken fixture.
        try! SigningKey(id: id, secret: secret)
    }

    static func keyring(_ keys: SigningKey...) -> Keyring {
        try! Keyring(keys: keys)
    }

    static let k1 = key("k1", secret1)
    static let k2 = key("k2", secret2)

    static func segment(_ json: String) -> String {
        Base64URL.encode(Array(json.utf8))
    }

    static func forge(header: String, payload: String, secret: [UInt8]) -> String {
        let input = segment(header) + "." + segment(payload)
        return input + "." + Base64URL.encode(HMACSHA256.authenticationCode(key: secret, message: Array(input.utf8)))
    }

    static func headerJSON(of token: String) -> String? {
        guard let first = token.split(separator: ".").first, let bytes = Base64URL.decode(String(first)) else {
            return nil
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

@Suite("JWT HS256")
struct JWTTests {
    let keyring = Fixtures.keyring(Fixtures.k1)
    let claims = TestClaims(sub: "user-1", exp: Fixtures.now + 3_600, aud: "latchkey", role: "member")

    @Test func roundTrips() throws {
        let token = JWT.sign(claims.flat, with: keyring)
        let verified = try TestClaims(JWT.verifyFlatClaims(token, with: keyring, now: Fixtures.now))
        #expect(verified == claims)
    }

    @Test func writesTheHeaderWithAlgTypAndKid() throws {
        let token = JWT.sign(claims.flat, with: keyring)
        #expect(token.split(separator: ".", omittingEmptySubsequences: false).count == 3)
        #expect(!token.contains("="))
        #expect(Fixtures.headerJSON(of: token) == #"{"alg":"HS256","typ":"JWT","kid":"k1"}"#)
    }

    @Test func acceptsAHeaderWithAnotherFieldOrder() throws {
        let token = Fixtures.forge(header: #"{"typ":"JWT","kid":"k1","alg":"HS256"}"#,
                                   payload: #"{"sub":"user-1","exp":1700003600}"#, secret: Fixtures.secret1)
        let verified = try TestClaims(JWT.verifyFlatClaims(token, with: keyring, now: Fixtures.now))
        #expect(verified.sub == "user-1")
    }

    @Test func refusesAlgNone() {
        let payload = #"{"sub":"admin","exp":1700003600}"#
        let unsigned = Fixtures.segment(#"{"alg":"none","typ":"JWT","kid":"k1"}"#) + "." + Fixtures.segment(payload) + "."
        #expect(throws: JWTError.malformed) {
            _ = try JWT.verifyFlatClaims(unsigned, with: keyring, now: Fixtures.now)
        }
        // Even with a valid MAC attached, the header's algorithm decides first.
        let signed = Fixtures.forge(header: #"{"alg":"none","typ":"JWT","kid":"k1"}"#, payload: payload,
                                    secret: Fixtures.secret1)
        #expect(throws: JWTError.unsupportedAlgorithm) {
            _ = try JWT.verifyFlatClaims(signed, with: keyring, now: Fixtures.now)
        }
    }

    @Test(arguments: ["HS512", "HS384", "RS256", "hs256", "es256", "HS256 ", "", "None"])
    func refusesOtherAlgorithms(_ alg: String) {
        let token = Fixtures.forge(header: #"{"alg":"\#(alg)","typ":"JWT","kid":"k1"}"#,
                                   payload: #"{"sub":"user-1","exp":1700003600}"#, secret: Fixtures.secret1)
        #expect(throws: JWTError.unsupportedAlgorithm) {
            _ = try JWT.verifyFlatClaims(token, with: keyring, now: Fixtures.now)
        }
    }

    /// ES256 is an algorithm of the keyring, but `k1` is an HMAC key: no P-256 key has that id.
    @Test func refusesES256NamingAnHMACKey() {
        let token = Fixtures.forge(header: #"{"alg":"ES256","typ":"JWT","kid":"k1"}"#,
                                   payload: #"{"sub":"user-1","exp":1700003600}"#, secret: Fixtures.secret1)
        #expect(throws: JWTError.unknownKey) {
            _ = try JWT.verifyFlatClaims(token, with: keyring, now: Fixtures.now)
        }
    }

    @Test func refusesAHeaderWithoutAlg() {
        let token = Fixtures.forge(header: #"{"typ":"JWT","kid":"k1"}"#,
                                   payload: #"{"sub":"user-1","exp":1700003600}"#, secret: Fixtures.secret1)
        #expect(throws: JWTError.unsupportedAlgorithm) {
            _ = try JWT.verifyFlatClaims(token, with: keyring, now: Fixtures.now)
        }
    }

    @Test func refusesCriticalExtensions() {
        let token = Fixtures.forge(header: #"{"alg":"HS256","kid":"k1","crit":["b64"],"b64":false}"#,
                                   payload: #"{"sub":"user-1","exp":1700003600}"#, secret: Fixtures.secret1)
        #expect(throws: JWTError.unsupportedAlgorithm) {
            _ = try JWT.verifyFlatClaims(token, with: keyring, now: Fixtures.now)
        }
    }

    @Test func refusesAChangedPayload() throws {
        let token = JWT.sign(claims.flat, with: keyring)
        let parts = token.split(separator: ".").map(String.init)
        var elevated = claims
        elevated.role = "admin"
        let payload = Base64URL.encode(elevated.flat.serialized())
        let tampered = parts[0] + "." + payload + "." + parts[2]
        #expect(throws: JWTError.badSignature) {
            _ = try JWT.verifyFlatClaims(tampered, with: keyring, now: Fixtures.now)
        }
    }

    @Test func refusesAChangedSignature() throws {
        let token = JWT.sign(claims.flat, with: keyring)
        var parts = token.split(separator: ".").map(String.init)
        var signature = try #require(Base64URL.decode(parts[2]))
        signature[31] ^= 0x01
        parts[2] = Base64URL.encode(signature)
        #expect(throws: JWTError.badSignature) {
            _ = try JWT.verifyFlatClaims(parts.joined(separator: "."), with: keyring, now: Fixtures.now)
        }
        parts[2] = String(parts[2].dropLast())
        #expect(throws: JWTError.badSignature) {
            _ = try JWT.verifyFlatClaims(parts.joined(separator: "."), with: keyring, now: Fixtures.now)
        }
    }

    @Test func refusesAnUnknownKid() throws {
        let token = JWT.sign(claims.flat, with: Fixtures.keyring(Fixtures.key("other", Fixtures.secret1)))
        #expect(throws: JWTError.unknownKey) {
            _ = try JWT.verifyFlatClaims(token, with: keyring, now: Fixtures.now)
        }
    }

    @Test func neverFallsBackToAnotherKey() throws {
        // Signed with k2's secret but naming k1: the keyring must not try k2.
        let token = Fixtures.forge(header: #"{"alg":"HS256","typ":"JWT","kid":"k1"}"#,
                                   payload: #"{"sub":"user-1","exp":1700003600}"#, secret: Fixtures.secret2)
        #expect(throws: JWTError.badSignature) {
            _ = try JWT.verifyFlatClaims(token, with: Fixtures.keyring(Fixtures.k1, Fixtures.k2), now: Fixtures.now)
        }
    }

    @Test func refusesAMissingKid() {
        let token = Fixtures.forge(header: #"{"alg":"HS256","typ":"JWT"}"#,
                                   payload: #"{"sub":"user-1","exp":1700003600}"#, secret: Fixtures.secret1)
        #expect(throws: JWTError.unknownKey) {
            _ = try JWT.verifyFlatClaims(token, with: keyring, now: Fixtures.now)
        }
    }

    @Test func refusesAnExpiredTokenOutsideTheLeeway() throws {
        let token = JWT.sign(claims.flat, with: keyring)
        #expect(throws: JWTError.expired) {
            _ = try JWT.verifyFlatClaims(token, with: keyring, now: claims.exp + 31)
        }
        #expect(throws: JWTError.expired) {
            _ = try JWT.verifyFlatClaims(token, with: keyring, now: claims.exp + 1, leeway: 0)
        }
    }

    @Test func acceptsATokenWithinTheLeeway() throws {
        let token = JWT.sign(claims.flat, with: keyring)
        let atExpiry = try TestClaims(JWT.verifyFlatClaims(token, with: keyring, now: claims.exp))
        let withinLeeway = try TestClaims(JWT.verifyFlatClaims(token, with: keyring, now: claims.exp + 30))
        #expect(atExpiry == claims)
        #expect(withinLeeway == claims)
    }

    @Test(arguments: [
        #"{"sub":"user-1"}"#,
        #"{"sub":"user-1","exp":"1700003600"}"#,
        #"{"sub":"user-1","exp":1700003600.5}"#,
        #"{"sub":"user-1","exp":null}"#,
    ])
    func refusesATokenWithoutAnIntegerExp(_ payload: String) {
        let token = Fixtures.forge(header: #"{"alg":"HS256","typ":"JWT","kid":"k1"}"#, payload: payload,
                                   secret: Fixtures.secret1)
        #expect(throws: JWTError.missingExpiry) {
            _ = try JWT.verifyFlatClaims(token, with: keyring, now: Fixtures.now)
        }
    }

    @Test func refusesASignedPayloadThatIsNotAJSONObject() {
        for payload in ["[1,2,3]", "not json", #"{"exp":1700003600"#] {
            let token = Fixtures.forge(header: #"{"alg":"HS256","typ":"JWT","kid":"k1"}"#, payload: payload,
                                       secret: Fixtures.secret1)
            #expect(throws: JWTError.malformed) {
                _ = try JWT.verifyFlatClaims(token, with: keyring, now: Fixtures.now)
            }
        }
    }

    @Test func refusesMalformedTokens() throws {
        let valid = JWT.sign(claims.flat, with: keyring)
        let parts = valid.split(separator: ".").map(String.init)
        let candidates = [
            "",
            ".",
            "..",
            parts[0],
            parts[0] + "." + parts[1],
            parts[0] + "." + parts[1] + ".",
            "." + parts[1] + "." + parts[2],
            parts[0] + ".." + parts[2],
            valid + ".",
            valid + "." + parts[2],
            parts[0] + "=." + parts[1] + "." + parts[2],
            parts[0] + "." + parts[1] + "." + parts[2] + "=",
            parts[0] + "." + parts[1] + ". " + parts[2],
            "Bearer " + valid,
            Fixtures.segment("not json") + "." + parts[1] + "." + parts[2],
            String(repeating: "a", count: 9_000) + "." + parts[1] + "." + parts[2],
        ]
        for token in candidates {
            #expect(throws: JWTError.self, "\(token.prefix(40))") {
                _ = try JWT.verifyFlatClaims(token, with: keyring, now: Fixtures.now)
            }
        }
        #expect(throws: JWTError.malformed) {
            _ = try JWT.verifyFlatClaims(parts[0] + ".." + parts[2], with: keyring, now: Fixtures.now)
        }
        #expect(throws: JWTError.malformed) {
            let long = String(repeating: "a", count: 9_000) + "." + parts[1] + "." + parts[2]
            _ = try JWT.verifyFlatClaims(long, with: keyring, now: Fixtures.now)
        }
    }

    @Test func verifiesConcurrentlyFromManyThreads() async throws {
        // Every event loop verifies with the same keyring value at once.
        let keyring = self.keyring
        let token = JWT.sign(claims.flat, with: keyring)
        let expected = claims
        let failures = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var failures = 0
                    for _ in 0..<500 {
                        let verified = try? TestClaims(JWT.verifyFlatClaims(token, with: keyring, now: Fixtures.now))
                        if verified != expected { failures += 1 }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
    }

    @Test func errorsCarryNoTokenOrKeyMaterial() throws {
        let token = JWT.sign(claims.flat, with: keyring)
        let error = #expect(throws: JWTError.self) {
            _ = try JWT.verifyFlatClaims(token, with: keyring, now: claims.exp + 3_600)
        }
        let text = String(describing: error) + String(reflecting: error)
        #expect(!text.contains(token.prefix(20)))
        #expect(!text.contains("0123456789abcdef"))
    }
}

@Suite("Keyring rotation and key validation")
struct KeyringTests {
    let claims = TestClaims(sub: "user-1", exp: Fixtures.now + 3_600)

    @Test func oldKeyStillVerifiesAndNewKeySigns() throws {
        let before = Fixtures.keyring(Fixtures.k1)
        let after = Fixtures.keyring(Fixtures.k2, Fixtures.k1)
        let oldToken = JWT.sign(claims.flat, with: before)
        let newToken = JWT.sign(claims.flat, with: after)

        let fromOld = try TestClaims(JWT.verifyFlatClaims(oldToken, with: after, now: Fixtures.now))
        let fromNew = try TestClaims(JWT.verifyFlatClaims(newToken, with: after, now: Fixtures.now))
        #expect(fromOld == claims)
        #expect(fromNew == claims)
        #expect(Fixtures.headerJSON(of: newToken)?.contains(#""kid":"k2""#) == true)
        #expect(after.signingKeyID == "k2")
        #expect(after.keyIDs == ["k2", "k1"])
        // A server that has not rotated yet does not know the new key.
        #expect(throws: JWTError.unknownKey) {
            _ = try JWT.verifyFlatClaims(newToken, with: before, now: Fixtures.now)
        }
    }

    @Test func refusesAnEmptyKeyringAndDuplicateIDs() {
        #expect(throws: KeyringError.empty) { try Keyring(keys: []) }
        #expect(throws: KeyringError.duplicateKeyID) {
            try Keyring(keys: [Fixtures.k1, Fixtures.key("k1", Fixtures.secret2)])
        }
    }

    @Test func refusesShortSecrets() {
        #expect(throws: SigningKeyError.secretTooShort) {
            try SigningKey(id: "k1", secret: Array(repeating: 7, count: 31))
        }
        #expect(throws: Never.self) { try SigningKey(id: "k1", secret: Array(repeating: 7, count: 32)) }
    }

    @Test(arguments: ["", "has space", "quote\"", "colon:", "comma,", "slash/", "ключ", String(repeating: "k", count: 65)])
    func refusesIDsThatCannotTravelUnescaped(_ id: String) {
        #expect(throws: SigningKeyError.invalidID) { try SigningKey(id: id, secret: Fixtures.secret1) }
    }

    @Test func neverPrintsTheSecret() {
        let key = Fixtures.key("k1", Array("super-secret-material-0123456789".utf8))
        let keyring = Fixtures.keyring(key)
        var dumped = ""
        dump(key, to: &dumped)
        dump(keyring, to: &dumped)
        for text in [String(describing: key), String(reflecting: key), "\(keyring)", dumped] {
            #expect(!text.contains("super-secret"))
            #expect(!text.contains("115, 117, 112"), "the secret's bytes as numbers")
            #expect(text.contains("k1"))
        }
    }
}
