import AuthCrypto

/// Identifiers drawn from the OS random source.
enum RandomID {
    /// 128 bits as 32 lower-case hex digits: user ids, and anything else named at random.
    static func make() -> String {
        hex(SecureRandom.bytes(16))
    }

    /// A session id: 32 lower-case hex digits as `make`'s, of which the first 12 are the
    /// milliseconds since 1970 (48 bits) and the other 20 random (80 bits). Sessions are
    /// made in time order, so a new one goes in at the right-hand end of the sessions'
    /// primary-key index, one page for a whole batch of sign-ins, where a random id put
    /// each on a page of its own, a page the writer wrote to the WAL (and read first, once
    /// the index outgrew the cache) for every sign-in. Eighty random bits keep an id
    /// unguessable; the time it tells is the session's `createdAt`, which its owner sees
    /// anyway, and an id alone opens nothing (a refresh token is MACed under the server's
    /// key).
    static func makeTimeOrdered(milliseconds: UInt64) -> String {
        let time = (0..<6).map { UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * $0)) }
        return hex(time + SecureRandom.bytes(10))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
