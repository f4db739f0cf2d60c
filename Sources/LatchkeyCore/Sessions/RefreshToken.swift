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
///
/// Every refresh reads one token and makes one: both work on the token's bytes where they
/// lie and build the MAC's message in a buffer on the stack, so neither splits, joins nor
/// interpolates strings (each an allocation or more).
struct RefreshToken: Equatable {
    let sessionID: String
    let generation: Int64
    /// The session's seed, derived to check this token's MAC and kept, so the token a
    /// refresh answers with costs one MAC, not a second derivation as well.
    let seed: [UInt8]

    private static let prefix = "lk1"
    private static let sessionIDLength = 32
    private static let maxGenerationDigits = 18
    private static let dot = UInt8(ascii: ".")

    /// Nil for anything that is not the shape of a token this server issues, or whose MAC
    /// the server did not make.
    init?(authenticating token: String, key: HMACKey, seeds: RefreshSeeds) {
        var token = token
        guard let parts = token.withUTF8({ Self.parts(of: $0) }) else { return nil }
        let seed = seeds.seed(for: parts.sessionID)
        guard ConstantTime.equals(parts.code, Self.code(sessionID: parts.sessionID, generation: parts.generation, key: key, seed: seed)) else {
            return nil
        }
        self.sessionID = parts.sessionID
        self.generation = parts.generation
        self.seed = seed
    }

    /// `lk1`, a dot, 32 lowercase hex digits, a dot, 1 to 18 decimal digits without a
    /// leading zero, a dot, and the 32-byte MAC in unpadded base64url (no further dot).
    private static func parts(of bytes: UnsafeBufferPointer<UInt8>) -> (sessionID: String, generation: Int64, code: [UInt8])? {
        let idStart = prefix.utf8.count + 1
        let idEnd = idStart + sessionIDLength
        guard bytes.count > idEnd, bytes[..<(idStart - 1)].elementsEqual(prefix.utf8), bytes[idStart - 1] == dot,
              bytes[idEnd] == dot, bytes[idStart..<idEnd].allSatisfy(isLowerHex)
        else { return nil }
        let digitsStart = idEnd + 1
        guard let digitsEnd = bytes[digitsStart...].firstIndex(of: dot) else { return nil }
        let digits = bytes[digitsStart..<digitsEnd]
        let mac = UnsafeBufferPointer(rebasing: bytes[(digitsEnd + 1)...])
        guard !digits.isEmpty, digits.count <= maxGenerationDigits, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              digits.count == 1 || digits.first != UInt8(ascii: "0"), !mac.contains(dot),
              let code = Base64URL.decode(mac), code.count == HMACSHA256.codeLength
        else { return nil }
        let sessionID = String(decoding: UnsafeBufferPointer(rebasing: bytes[idStart..<idEnd]), as: UTF8.self)
        return (sessionID, digits.reduce(0) { $0 * 10 + Int64($1 - 0x30) }, code)
    }

    /// The token of `generation` for the session `sessionID`.
    static func make(sessionID: String, generation: Int64, key: HMACKey, seeds: RefreshSeeds) -> String {
        make(sessionID: sessionID, generation: generation, key: key, seed: seeds.seed(for: sessionID))
    }

    /// The token of `generation` for the session whose seed (`RefreshSeeds.seed(for:)` of
    /// `sessionID`) is `seed`.
    static func make(sessionID: String, generation: Int64, key: HMACKey, seed: [UInt8]) -> String {
        let code = Base64URL.encode(code(sessionID: sessionID, generation: generation, key: key, seed: seed))
        let generation = String(generation)
        var token = ""
        token.reserveCapacity(prefix.utf8.count + sessionID.utf8.count + generation.utf8.count + code.utf8.count + 3)
        token += prefix
        token += "."
        token += sessionID
        token += "."
        token += generation
        token += "."
        token += code
        return token
    }

    /// HMAC over `latchkey-refresh:<session id>:<generation>:` and the seed. Lengths are
    /// fixed or delimited, so no two inputs share a message.
    private static func code(sessionID: String, generation: Int64, key: HMACKey, seed: [UInt8]) -> [UInt8] {
        let digits = String(generation)  // 15 digits or fewer (every real one) allocate nothing
        let capacity = messagePrefix.count + sessionID.utf8.count + digits.utf8.count + seed.count + 2
        return HMACMessage.authenticationCode(key: key, capacity: capacity) { message in
            message.append(messagePrefix)
            message.append(sessionID.utf8)
            message.append(CollectionOfOne(UInt8(ascii: ":")))
            message.append(digits.utf8)
            message.append(CollectionOfOne(UInt8(ascii: ":")))
            message.append(seed)
        }
    }

    private static let messagePrefix = Array("latchkey-refresh:".utf8)

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
