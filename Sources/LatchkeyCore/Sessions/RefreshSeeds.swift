import AuthCrypto

/// Sessions' refresh seeds, derived from the database's session seed key
/// (`session_seed_key`, migrations/0013) and the session id: HMAC-SHA256 under that key.
/// A server that knows the key checks a refresh token's MAC before it reads the session,
/// so a forged token costs no statement and over PostgreSQL a batch of refreshes is one
/// `UPDATE` (`RefreshBatches`). The key stays in the database and the refresh key outside
/// it, so neither alone makes a token.
struct RefreshSeeds: Sendable {
    private let key: HMACKey

    init(key: [UInt8]) {
        self.key = HMACKey(key)
    }

    /// The database's key, which its migration made.
    static func load(from database: Database) throws -> RefreshSeeds {
        guard let secret = try database.read({ try SessionStore.seedKey(on: $0) }), secret.count >= 32 else {
            throw StoreError.failed("session_seed_key holds no key of 32 bytes")
        }
        return RefreshSeeds(key: secret)
    }

    func seed(for sessionID: String) -> [UInt8] {
        // The prefix keeps these MACs apart from any other use of the key.
        HMACMessage.authenticationCode(key: key, capacity: Self.messagePrefix.count + sessionID.utf8.count) { message in
            message.append(Self.messagePrefix)
            message.append(sessionID.utf8)
        }
    }

    private static let messagePrefix = Array("latchkey-session-seed:".utf8)
}
