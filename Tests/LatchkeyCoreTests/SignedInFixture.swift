import AuthCrypto
import Foundation
@testable import LatchkeyCore

/// What the bearer-check tests start from: one account, `u1`, with one session made at
/// 1000 in a fresh SQLite file, and that session's first token pair.
struct SignedInFixture {
    let database: Database
    let reader: StoreReader
    let issuer: TokenIssuer
    let pair: TokenPair
    let sessionID: String
    let path: String

    var header: String { "Bearer \(pair.accessToken)" }

    init(policy: AccountsPolicy) async throws {
        path = NSTemporaryDirectory() + "latchkey-signed-in-\(UUID().uuidString).sqlite"
        database = try Database(path: path)
        let keyring = try Keyring(keys: [SigningKey(id: "k1", secret: Array(repeating: 7, count: 32))])
        let issuer = TokenIssuer(
            keys: CurrentKeyring(keyring), refreshKey: RefreshTokenKey(secret: Array(repeating: 9, count: 32)),
            seeds: RefreshSeeds(key: Array(repeating: 5, count: 32)), policy: policy
        )
        let email = try EmailRules.normalize("ada@example.com").get()
        let (user, sessionID, refresh) = try await database.write { db in
            try AccountStore.insertUser(id: "u1", email: email, passwordHash: "x", displayName: "ada", now: 1000, on: db)
            let (refresh, sessionID) = try AccountService.startSession(for: "u1", by: .password, userAgent: nil, now: 1000, issuer: issuer, on: db)
            return (try AccountStore.user(id: "u1", on: db)!, sessionID, refresh)
        }
        self.issuer = issuer
        self.sessionID = sessionID
        pair = try issuer.pair(for: user, sessionID: sessionID, methods: .password, refreshToken: refresh, now: 1000)
        reader = try database.makeReader()
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
