import AuthCrypto
import FlatJSON
import Testing

@Suite struct JWTFlatClaimsTests {
    @Test func aFlatSignedTokenVerifiesLikeAnEncodedOne() throws {
        let keyring = try Keyring(keys: [SigningKey(id: "k1", secret: Array(repeating: 9, count: 32))])
        let token = JWT.sign(FlatJSONObject(["sub": .string("u1"), "exp": .integer(2_000)]), with: keyring)
        let claims = try JWT.verifyFlatClaims(token, with: keyring, now: 1_000)
        #expect(claims.string("sub") == "u1")
        #expect(claims.integer("exp") == 2_000)
    }
}
