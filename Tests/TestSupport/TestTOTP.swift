import Foundation

/// RFC 6238 as an authenticator app computes it, written here from the RFCs (FIPS 180-4
/// SHA-1, RFC 2104 HMAC, RFC 4226 truncation) and sharing no code with the server's
/// `TOTP`: the tests check the server against an independent phone, not against itself.
public enum TestTOTP {
    /// The 6-digit code of `base32Secret` (as enrolment shows it) at `time`.
    public static func code(_ base32Secret: String, at time: Date = Date()) throws -> String {
        guard let secret = base32Decoded(base32Secret) else { throw TestError("not base32: \(base32Secret.count) characters") }
        return code(secret: secret, step: UInt64(time.timeIntervalSince1970) / 30, digits: 6)
    }

    public static func code(secret: [UInt8], step: UInt64, digits: Int) -> String {
        let counter = (0..<8).map { UInt8(truncatingIfNeeded: step >> (56 - 8 * UInt64($0))) }
        let mac = hmacSHA1(key: secret, message: counter)
        let offset = Int(mac[19] & 0x0F)
        let value = (UInt32(mac[offset] & 0x7F) << 24 | UInt32(mac[offset + 1]) << 16 | UInt32(mac[offset + 2]) << 8 | UInt32(mac[offset + 3]))
        let modulus = (0..<digits).reduce(UInt32(1)) { result, _ in result * 10 }
        let text = String(value % modulus)
        return String(repeating: "0", count: digits - text.count) + text
    }

    /// RFC 4648 base32, upper case, no padding.
    public static func base32Decoded(_ text: String) -> [UInt8]? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var bits = 0
        var buffer = 0
        var bytes: [UInt8] = []
        for character in text where character != "=" {
            guard let index = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5) | index
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((buffer >> bits) & 0xFF))
            }
        }
        return bytes
    }

    static func hmacSHA1(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? sha1(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        let inner = sha1(block.map { $0 ^ 0x36 } + message)
        return sha1(block.map { $0 ^ 0x5C } + inner)
    }

    static func sha1(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var padded = message + [0x80]
        while padded.count % 64 != 56 { padded.append(0) }
        let length = UInt64(message.count) * 8
        padded += (0..<8).map { UInt8(truncatingIfNeeded: length >> (56 - 8 * UInt64($0))) }
        for chunk in stride(from: 0, to: padded.count, by: 64) {
            var w = (0..<16).map { index in
                (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(padded[chunk + 4 * index + $1]) }
            }
            for index in 16..<80 {
                let x = w[index - 3] ^ w[index - 8] ^ w[index - 14] ^ w[index - 16]
                w.append(x << 1 | x >> 31)
            }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for index in 0..<80 {
                let (f, k): (UInt32, UInt32) = switch index {
                case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[index]
                (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, temp)
            }
            h = [h[0] &+ a, h[1] &+ b, h[2] &+ c, h[3] &+ d, h[4] &+ e]
        }
        return h.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) } }
    }
}

