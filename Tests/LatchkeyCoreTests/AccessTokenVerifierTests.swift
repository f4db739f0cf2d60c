import AuthCrypto
import Foundation
@testable import LatchkeyCore
import Testing

/// The inline bearer check with its per-loop cache of verified tokens: the cache may skip
/// the signature work, never the expiry or the session.
@Suite struct AccessTokenVerifierTests {
    private let policy = AccountsPolicy(issuer: "https://issuer.test", reservedDisplayNames: ReservedDisplayNames([]))

    @Test func aCachedTokenStillExpiresAndItsSessionIsStillChecked() async throws {
        let signedIn = try await SignedInFixture(policy: policy)
        defer { signedIn.remove() }
        let (database, reader, issuer, pair) = (signedIn.database, signedIn.reader, signedIn.issuer, signedIn.pair)
        let verifier = AccessTokenVerifier(keys: issuer.keys, policy: policy, sessions: SessionCache(capacity: 0))
        let cache = VerifiedTokenCache()
        let header = "Bearer \(pair.accessToken)"

        let first = try verifier.verify(authorization: header, reader: reader, cache: cache, now: 1001)
        #expect(first.userID == "u1")
        #expect(try verifier.verify(authorization: header, reader: reader, cache: cache, now: 1002) == first)

        let expiry = 1000 + policy.accessTokenTTL
        #expect(throws: AccessError.tokenExpired) {
            try verifier.verify(authorization: header, reader: reader, cache: cache, now: expiry + 31)
        }
        try await database.write { db in try SessionStore.revoke(first.sessionID, now: 1003, on: db) }
        #expect(throws: AccessError.sessionRevoked) {
            try verifier.verify(authorization: header, reader: reader, cache: cache, now: 1004)
        }
    }

    @Test func aTamperedTokenIsRefusedEvenAfterTheRealOneWasCached() async throws {
        let signedIn = try await SignedInFixture(policy: policy)
        defer { signedIn.remove() }
        let (reader, issuer, pair) = (signedIn.reader, signedIn.issuer, signedIn.pair)
        let verifier = AccessTokenVerifier(keys: issuer.keys, policy: policy, sessions: SessionCache(capacity: 0))
        let cache = VerifiedTokenCache()
        _ = try verifier.verify(authorization: "Bearer \(pair.accessToken)", reader: reader, cache: cache, now: 1001)
        var tampered = Array(pair.accessToken.utf8)
        tampered[tampered.count - 2] = tampered[tampered.count - 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(throws: AccessError.invalidToken) {
            try verifier.verify(authorization: "Bearer " + String(decoding: tampered, as: UTF8.self), reader: reader, cache: cache, now: 1001)
        }
    }

    @Test(arguments: [nil, "", "Bearer", "Bearer ", "Basic abc", "bearer"])
    func aMissingOrForeignSchemeIsUnauthenticated(_ header: String?) async throws {
        let signedIn = try await SignedInFixture(policy: policy)
        defer { signedIn.remove() }
        let (reader, issuer) = (signedIn.reader, signedIn.issuer)
        let verifier = AccessTokenVerifier(keys: issuer.keys, policy: policy, sessions: SessionCache(capacity: 0))
        #expect(throws: AccessError.unauthenticated) { try verifier.verify(authorization: header, reader: reader, now: 1001) }
    }
}
