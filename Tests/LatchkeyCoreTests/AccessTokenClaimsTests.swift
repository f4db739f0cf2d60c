import AuthCrypto
import FlatJSON
@testable import LatchkeyCore
import Testing

/// The access token's claims are written member by member (`TokenIssuer.pair`), not from a
/// dictionary: they must still be every claim of docs/api.md, once each, as the compact,
/// key-sorted JSON `FlatJSONObject.serialized` writes.
@Suite struct AccessTokenClaimsTests {
    private let policy = AccountsPolicy(issuer: "https://issuer.test", reservedDisplayNames: ReservedDisplayNames([]))

    @Test func theClaimsAreEveryClaimOnceInSortedCompactJSON() async throws {
        let signedIn = try await SignedInFixture(policy: policy)
        defer { signedIn.remove() }
        let segments = signedIn.pair.accessToken.split(separator: ".", omittingEmptySubsequences: false)
        #expect(segments.count == 3)
        let payload = try #require(Base64URL.decode(String(segments[1])))
        let claims = try #require(payload.withUnsafeBufferPointer { FlatJSONObject(parsing: $0) })
        // Reading keeps an array only as `.composite`: `amr` is put back to write them again.
        var values = claims.values
        #expect(values["amr"] == .composite)
        values["amr"] = .strings(["pwd"])
        #expect(FlatJSONObject(values).serialized() == payload)
        #expect(Set(claims.values.keys) == ["amr", "aud", "email", "email_verified", "exp", "iat", "iss", "sid", "sub"])
        #expect(claims.string("iss") == "https://issuer.test")
        #expect(claims.string("aud") == policy.audience)
        #expect(claims.string("sub") == "u1")
        #expect(claims.string("sid") == signedIn.sessionID)
        #expect(claims.string("email") == "ada@example.com")
        #expect(claims.bool("email_verified") == false)
        #expect(claims.integer("iat") == 1000)
        #expect(claims.integer("exp") == 1000 + policy.accessTokenTTL)
    }
}
