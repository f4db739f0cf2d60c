import AuthCrypto

/// Sign-in challenges that need no row until they are used: 32 random bytes, their expiry
/// and the server's MAC over both (72 bytes). Asking for sign-in options, which anyone may
/// do, writes nothing (no write to wait for, nothing for a stranger to fill a table with);
/// the sign-in that uses one records it as spent (`WebAuthnChallengeStore.spend`), so it
/// works once. The key is derived from the refresh-token key, which every instance shares.
struct LoginChallenges: Sendable {
    /// Five minutes to answer, as registration challenges.
    static let lifetime = WebAuthnChallengeStore.lifetime
    static let nonceLength = 32
    static let length = nonceLength + 8 + HMACSHA256.codeLength
    private let key: HMACKey

    init(refreshKey: RefreshTokenKey) {
        key = HMACKey(refreshKey.mac.authenticationCode(Array("latchkey webauthn sign-in challenges".utf8)))
    }

    func make(now: Int64) -> [UInt8] {
        let expiry = now + Self.lifetime
        let signed = SecureRandom.bytes(Self.nonceLength) + (0..<8).map { UInt8(truncatingIfNeeded: expiry >> (56 - 8 * $0)) }
        return signed + key.authenticationCode(signed)
    }

    /// When `challenge` expires, if this server made it and it has not expired by `now`;
    /// nil for anything else (a registration challenge, another server's, an altered one).
    func expiry(of challenge: [UInt8], now: Int64) -> Int64? {
        guard challenge.count == Self.length else { return nil }
        let signed = Array(challenge[..<(Self.nonceLength + 8)])
        guard ConstantTime.equals(key.authenticationCode(signed), Array(challenge[(Self.nonceLength + 8)...])) else { return nil }
        let expiry = signed[Self.nonceLength...].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        return now < expiry ? expiry : nil
    }
}
