import AuthCrypto

/// The ten single-use codes that stand in for the authenticator app when the phone is
/// lost: shown to the user once, stored only as hashes.
///
/// A code is 15 symbols of Crockford's base32 (`0–9 a–z` without `i l o u`), 75 random
/// bits, written `xxxxx-xxxxx-xxxxx`. Typing is forgiving: case, dashes and spaces are
/// ignored, and `o`, `i`, `l` are read as `0`, `1`, `1`, the symbols they are mistaken for.
///
/// Why plain SHA-256 and not the slow password hash: a slow hash exists to make guessing
/// a low-entropy password expensive, and these codes are not guessable. Each hash is
/// salted with the user id (a label and the id in front of the code), so a stolen table
/// must be attacked one user at a time; finding one of a user's ten codes then takes about
/// 2^72 SHA-256 runs on average: at the ~2^34 a second of today's fastest GPU, thousands
/// of years for one account (a 12-symbol code, 60 bits, would fall to one GPU in weeks,
/// hence 15), and the prize is the second factor alone, not the password. Online, the
/// challenge's own limits (5 wrong codes per MFA token, and the login throttle) bound
/// guessing far more tightly.
public struct RecoveryCodes: Sendable {
    public static let count = 10
    /// 15 symbols of 5 bits: 75 bits, above the 50 the contract asks for (see above).
    static let symbolCount = 15
    static let groupLength = 5
    static let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)
    /// Longer input is refused before any work: even with a dash or space between every
    /// symbol a real code is 29 bytes.
    static let maximumInputLength = 64

    /// Shown once, in the order of `hashes`; never stored or logged.
    public let codes: [String]
    /// What the database keeps, one per code (32 bytes each).
    public let hashes: [[UInt8]]

    /// Ten fresh codes for `userID`.
    public static func generate(for userID: String) -> RecoveryCodes {
        var codes: [String] = []
        var hashes: [[UInt8]] = []
        for _ in 0..<count {
            // 256 is a multiple of 32, so the low 5 bits of a random byte are uniform.
            let symbols = SecureRandom.bytes(symbolCount).map { alphabet[Int($0 & 0x1F)] }
            codes.append(displayed(symbols))
            hashes.append(hash(symbols, userID: userID))
        }
        return RecoveryCodes(codes: codes, hashes: hashes)
    }

    /// Which of `hashes` the submitted code (bytes from the network) matches, nil for none
    /// or for input that is no code at all. Every stored hash is compared in constant time,
    /// whichever matched: the caller deletes the one at the index, in the same write that
    /// lets the user in, so the code is used once.
    public static func match(_ submitted: [UInt8], for userID: String, among hashes: [[UInt8]]) -> Int? {
        guard let symbols = normalised(submitted) else { return nil }
        let candidate = hash(symbols, userID: userID)
        var matched: Int?
        for (index, stored) in hashes.enumerated() where ConstantTime.equals(candidate, stored) {
            matched = matched ?? index
        }
        return matched
    }

    /// The 15 symbols a person meant, or nil when the input is too long, holds anything but
    /// symbols, dashes and spaces, or has the wrong number of symbols.
    static func normalised(_ submitted: [UInt8]) -> [UInt8]? {
        guard submitted.count <= maximumInputLength else { return nil }
        var symbols: [UInt8] = []
        symbols.reserveCapacity(symbolCount)
        for byte in submitted {
            switch byte {
            case UInt8(ascii: "-"), UInt8(ascii: " "):
                continue
            case UInt8(ascii: "o"), UInt8(ascii: "O"):
                symbols.append(UInt8(ascii: "0"))
            case UInt8(ascii: "i"), UInt8(ascii: "I"), UInt8(ascii: "l"), UInt8(ascii: "L"):
                symbols.append(UInt8(ascii: "1"))
            default:
                let lowered = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
                guard alphabet.contains(lowered) else { return nil }
                symbols.append(lowered)
            }
        }
        return symbols.count == symbolCount ? symbols : nil
    }

    static func hash(_ symbols: [UInt8], userID: String) -> [UInt8] {
        let id = Array(userID.utf8)
        let count = UInt32(id.count)
        return SHA256.hash(Array("latchkey recovery_code v1".utf8)
            + [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
            + id + symbols)
    }

    /// `xxxxx-xxxxx-xxxxx`.
    static func displayed(_ symbols: [UInt8]) -> String {
        var text: [UInt8] = []
        for (index, symbol) in symbols.enumerated() {
            if index > 0 && index.isMultiple(of: groupLength) { text.append(UInt8(ascii: "-")) }
            text.append(symbol)
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension RecoveryCodes: CustomStringConvertible {
    /// Interpolated into a log line, a set of codes shows none of them.
    public var description: String { "RecoveryCodes(\(codes.count) codes, redacted)" }
}
