import AuthCrypto

/// A refresh token as presented: `lk1.<session id>.<generation>.<MAC>`, where the MAC is
/// HMAC-SHA256 under the server's refresh key over the session id, the generation and the
/// session's seed (256 bits, kept in the session row: derived from the database's session
/// seed key for sessions made since migration 0013, see `RefreshSeeds`; random before).
/// The id finds the row (it is no secret: access tokens carry it too); the generation says
/// which rotation issued it; the MAC proves the server issued it, so a forged or guessed
/// token changes nothing, and an authentic one of an earlier generation is reuse for ever,
/// with nothing stored per rotation. The server can derive any generation's token again, which is how a retry
/// within the reuse grace gets the session's current token instead of a new rotation.
/// The `lk1` prefix names the format (and keeps the token from looking like a JWT).
struct RefreshToken: Equatable {
    enum Proof: Equatable {
        case mac(generation: Int64, code: [UInt8])
        /// A token from before generations (`<session id>.<256 random bits>`): only its
        /// SHA-256 was stored.
        case legacy(hash: [UInt8])
    }

    let sessionID: String
    let proof: Proof

    private static let prefix = "lk1"
    private static let sessionIDLength = 32
    private static let maxGenerationDigits = 18

    /// Nil for anything that is not the shape of a token this server issues.
    init?(parsing token: String) {
        let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.count == 2 {
            guard parts[0].count == Self.sessionIDLength, parts[0].allSatisfy(Self.isLowerHex),
                  parts[1].count >= 43, parts[1].count <= 64 else { return nil }
            sessionID = String(decoding: parts[0], as: UTF8.self)
            proof = .legacy(hash: SHA256.hash(token.utf8))
            return
        }
        guard parts.count == 4, parts[0].elementsEqual(Self.prefix.utf8) else { return nil }
        let (id, digits, mac) = (parts[1], parts[2], parts[3])
        guard id.count == Self.sessionIDLength, id.allSatisfy(Self.isLowerHex),
              !digits.isEmpty, digits.count <= Self.maxGenerationDigits, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              digits.count == 1 || digits.first != UInt8(ascii: "0"),
              let code = Base64URL.decode(String(decoding: mac, as: UTF8.self)), code.count == HMACSHA256.codeLength
        else { return nil }
        sessionID = String(decoding: id, as: UTF8.self)
        proof = .mac(generation: digits.reduce(0) { $0 * 10 + Int64($1 - 0x30) }, code: code)
    }

    /// The token of `generation` for the session with `seed`.
    static func make(sessionID: String, generation: Int64, seed: [UInt8], key: HMACKey) -> String {
        prefix + "." + sessionID + "." + String(generation) + "." + Base64URL.encode(code(sessionID: sessionID, generation: generation, seed: seed, key: key))
    }

    static func code(sessionID: String, generation: Int64, seed: [UInt8], key: HMACKey) -> [UInt8] {
        // Lengths are fixed or delimited, so no two inputs share a message.
        key.authenticationCode(Array("latchkey-refresh:\(sessionID):\(generation):".utf8) + seed)
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66)
    }
}
