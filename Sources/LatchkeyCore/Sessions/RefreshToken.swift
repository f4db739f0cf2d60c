import AuthCrypto

/// A refresh token this server issued: `lk1.<session id>.<generation>.<MAC>`, where the MAC
/// is HMAC-SHA256 under the server's refresh key over the session id, the generation and
/// the session's seed (derived from the database's session seed key, see `RefreshSeeds`).
/// The id finds the row (it is no secret: access tokens carry it too); the generation says
/// which rotation issued it; the MAC proves the server issued it, so a forged or guessed
/// token is refused before any read, and an authentic one of an earlier generation is
/// reuse for ever, with nothing stored per rotation. The server can derive any generation's
/// token again, which is how a retry within the reuse grace gets the session's current
/// token instead of a new rotation. The `lk1` prefix names the format (and keeps the token
/// from looking like a JWT). It is the only format: tokens of sessions from before derived
/// seeds fail the MAC, and migrations/0017 ended those sessions.
struct RefreshToken: Equatable {
    let sessionID: String
    let generation: Int64
    /// The session's seed, derived to check this token's MAC and kept, so the token a
    /// refresh answers with costs one MAC, not a second derivation as well.
    let seed: [UInt8]

    private static let prefix = "lk1"
    private static let sessionIDLength = 32
    private static let maxGenerationDigits = 18

    /// Nil for anything that is not the shape of a token this server issues, or whose MAC
    /// the server did not make.
    init?(authenticating token: String, key: HMACKey, seeds: RefreshSeeds) {
        let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].elementsEqual(Self.prefix.utf8) else { return nil }
        let (id, digits, mac) = (parts[1], parts[2], parts[3])
        guard id.count == Self.sessionIDLength, id.allSatisfy(Self.isLowerHex),
              !digits.isEmpty, digits.count <= Self.maxGenerationDigits, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              digits.count == 1 || digits.first != UInt8(ascii: "0"),
              let code = Base64URL.decode(String(decoding: mac, as: UTF8.self)), code.count == HMACSHA256.codeLength
        else { return nil }
        let sessionID = String(decoding: id, as: UTF8.self)
        let generation = digits.reduce(0) { $0 * 10 + Int64($1 - 0x30) }
        let seed = seeds.seed(for: sessionID)
        guard ConstantTime.equals(code, Self.code(sessionID: sessionID, generation: generation, key: key, seed: seed)) else { return nil }
        self.sessionID = sessionID
        self.generation = generation
        self.seed = seed
    }

    /// The token of `generation` for the session `sessionID`.
    static func make(sessionID: String, generation: Int64, key: HMACKey, seeds: RefreshSeeds) -> String {
        make(sessionID: sessionID, generation: generation, key: key, seed: seeds.seed(for: sessionID))
    }

    /// The token of `generation` for the session whose seed (`RefreshSeeds.seed(for:)` of
    /// `sessionID`) is `seed`.
    static func make(sessionID: String, generation: Int64, key: HMACKey, seed: [UInt8]) -> String {
        prefix + "." + sessionID + "." + String(generation) + "." + Base64URL.encode(code(sessionID: sessionID, generation: generation, key: key, seed: seed))
    }

    private static func code(sessionID: String, generation: Int64, key: HMACKey, seed: [UInt8]) -> [UInt8] {
        // Lengths are fixed or delimited, so no two inputs share a message.
        key.authenticationCode(Array("latchkey-refresh:\(sessionID):\(generation):".utf8) + seed)
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66)
    }
}

/// Printed (in a log line, a test's failure), a token shows which session and generation it
/// names, never its seed: the seed and the refresh key make the session's every token.
extension RefreshToken: CustomStringConvertible, CustomDebugStringConvertible {
    var description: String { "RefreshToken(session: \(sessionID), generation: \(generation))" }
    var debugDescription: String { description }
}
