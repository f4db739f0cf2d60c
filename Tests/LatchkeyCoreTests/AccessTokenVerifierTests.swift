import AuthCrypto
import Foundation
@testable import LatchkeyCore
import Testing

/// The inline bearer check with its per-loop cache of verified tokens: the cache may skip
/// the signature work, never the expiry or the session.
@Suite struct AccessTokenVerifierTests {
    private let policy = AccountsPolicy(issuer: "https://issuer.test", reservedDisplayNames: ReservedDisplayNames([]))

    private func setUp() async throws -> (Database, StoreReader, TokenIssuer, TokenPair, String) {
        let path = NSTemporaryDirectory() + "latchkey-verifier-\(UUID().uuidString).sqlite"
        let database = try Database(path: path)
        let keyring = try Keyring(keys: [SigningKey(id: "k1", secret: Array(repeating: 7, count: 32))])
        let issuer = TokenIssuer(keys: CurrentKeyring(keyring), refreshKey: RefreshTokenKey(secret: Array(repeating: 9, count: 32)), seeds: RefreshSeeds(key: Array(repeating: 5, count: 32)), policy: policy)
        let email = try EmailRules.normalize("ada@example.com").get()
        let (user, sessionID, refresh) = try await database.write { db in
            try AccountStore.insertUser(id: "u1", email: email, passwordHash: "x", displayName: "ada", now: 1000, on: db)
            let (refresh, sessionID) = try AccountService.startSession(for: "u1", userAgent: nil, now: 1000, issuer: issuer, on: db)
            return (try AccountStore.user(id: "u1", on: db)!, sessionID, refresh)
        }
        let pair = try issuer.pair(for: user, sessionID: sessionID, refreshToken: refresh, now: 1000)
        return (database, try database.makeReader(), issuer, pair, path)
    }

    @Test func aCachedTokenStillExpiresAndItsSessionIsStillChecked() async throws {
        let (database, reader, issuer, pair, path) = try await setUp()
        defer { try? FileManager.default.removeItem(atPath: path) }
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
        let (_, reader, issuer, pair, path) = try await setUp()
        defer { try? FileManager.default.removeItem(atPath: path) }
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
        let (_, reader, issuer, _, path) = try await setUp()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let verifier = AccessTokenVerifier(keys: issuer.keys, policy: policy, sessions: SessionCache(capacity: 0))
        #expect(throws: AccessError.unauthenticated) { try verifier.verify(authorization: header, reader: reader, now: 1001) }
    }
}
