import AuthCrypto
import Testing

/// A keyring holding HMAC and P-256 keys: it signs with the configured algorithm, verifies
/// both, and never lets a header pair one algorithm with the other's key.
@Suite struct ES256KeyringTests {
    static let p256 = try! ES256SigningKey(id: "e1", privateKey: P256PrivateKey.generate())
    static let claims = TestClaims(sub: "user-1", exp: Fixtures.now + 600, aud: "latchkey")

    @Test func itSignsWithItsP256KeyAndVerifiesTokensOfBoth() throws {
        let hs = try Keyring(keys: [Fixtures.k1], es256Keys: [Self.p256], signingWith: .hs256)
        let es = try Keyring(keys: [Fixtures.k1], es256Keys: [Self.p256], signingWith: .es256)
        #expect(es.signingKeyID == "e1" && es.keyIDs == ["e1", "k1"])
        let esToken = JWT.sign(Self.claims.flat, with: es)
        #expect(Fixtures.headerJSON(of: esToken) == #"{"alg":"ES256","kid":"e1","typ":"JWT"}"#)
        let hsToken = JWT.sign(Self.claims.flat, with: hs)
        for token in [esToken, hsToken] {
            for ring in [hs, es] {
                #expect(try TestClaims(JWT.verifyFlatClaims(token, with: ring, now: Fixtures.now)) == Self.claims)
            }
        }
        let other = try ES256SigningKey(id: "e1", privateKey: P256PrivateKey.generate())
        #expect(throws: JWTError.badSignature, "another key under the same id") {
            try JWT.verifyFlatClaims(esToken, with: Keyring(keys: [], es256Keys: [other], signingWith: .es256), now: Fixtures.now)
        }
    }

    /// Mallory makes an HS256 token naming the P-256 key and MACs it with the public key.
    @Test func anHS256HeaderNeverReachesAP256Key() throws {
        let ring = try Keyring(keys: [Fixtures.k1], es256Keys: [Self.p256], signingWith: .es256)
        let point = [0x04] + Self.p256.privateKey.publicX + Self.p256.privateKey.publicY
        let token = Fixtures.forge(header: #"{"alg":"HS256","typ":"JWT","kid":"e1"}"#, payload: #"{"sub":"user-1","exp":1700003600}"#, secret: point)
        #expect(throws: JWTError.unknownKey) { try JWT.verifyFlatClaims(token, with: ring, now: Fixtures.now) }
    }

    @Test func aKeyringNeedsAKeyOfItsAlgorithmAndDistinctIDs() {
        #expect(throws: KeyringError.empty) { try Keyring(keys: [Fixtures.k1], signingWith: .es256) }
        #expect(throws: KeyringError.empty) { try Keyring(keys: [], es256Keys: [Self.p256], signingWith: .hs256) }
        let clash = try! ES256SigningKey(id: "k1", privateKey: P256PrivateKey.generate())
        #expect(throws: KeyringError.duplicateKeyID) { try Keyring(keys: [Fixtures.k1], es256Keys: [clash], signingWith: .es256) }
    }
}
