/// RFC 4648 §6 base32 (`A–Z 2–7`), the encoding of TOTP secrets in `otpauth://` URIs and
/// in what a person types into an authenticator app when the QR code will not scan.
///
/// Encoding writes no padding (the Key URI format leaves it out, and some apps refuse it).
/// Decoding is tolerant of what people and other systems hand over, lower case and
/// padding, and of nothing else: no whitespace, no other alphabet, no length a real
/// encoding cannot have, no stray bits, so each value keeps one spelling apart from case.
public enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)
    private static let padding = UInt8(ascii: "=")

    public static func encode(_ bytes: [UInt8]) -> String {
        var output = [UInt8]()
        output.reserveCapacity((bytes.count * 8 + 4) / 5)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                output.append(alphabet[Int(buffer >> UInt32(bits) & 0x1F)])
            }
        }
        if bits > 0 {
            output.append(alphabet[Int(buffer << UInt32(5 - bits) & 0x1F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    public static func decode(_ text: String) throws(Base32Error) -> [UInt8] {
        try decode(Array(text.utf8))
    }

    public static func decode(_ encoded: [UInt8]) throws(Base32Error) -> [UInt8] {
        let symbols = try withoutPadding(encoded)
        var output = [UInt8]()
        output.reserveCapacity(symbols.count * 5 / 8)
        var buffer: UInt32 = 0
        var bits = 0
        for (offset, symbol) in symbols.enumerated() {
            guard let value = value(of: symbol) else { throw .invalidCharacter(offset: offset) }
            buffer = buffer << 5 | UInt32(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        // Of the 8 symbols of a group, 1, 3 or 6 carry fewer bits than a byte needs.
        guard ![1, 3, 6].contains(symbols.count % 8) else { throw .impossibleLength(symbols.count) }
        // What is left over (under 8 bits) is filler an encoder sets to zero.
        guard buffer & (1 << UInt32(bits) - 1) == 0 else { throw .nonZeroTrailingBits }
        return output
    }

    /// The symbols before the padding; padding, when present, must be exactly what
    /// completes the last group of 8, and nothing may follow it.
    private static func withoutPadding(_ encoded: [UInt8]) throws(Base32Error) -> ArraySlice<UInt8> {
        guard let first = encoded.firstIndex(of: padding) else { return encoded[...] }
        if let stray = encoded[first...].firstIndex(where: { $0 != padding }) { throw .invalidCharacter(offset: stray) }
        let symbols = encoded[..<first]
        let expected = symbols.count % 8 == 0 ? 0 : 8 - symbols.count % 8
        guard encoded.count - first == expected else { throw .wrongPadding }
        return symbols
    }

    private static func value(of symbol: UInt8) -> UInt8? {
        switch symbol {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): symbol - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): symbol - UInt8(ascii: "a")
        case UInt8(ascii: "2")...UInt8(ascii: "7"): symbol - UInt8(ascii: "2") + 26
        default: nil
        }
    }
}

/// Why a base32 text was refused; none of these carries the text itself, which may be a secret.
public enum Base32Error: Error, Equatable, Sendable {
    /// A byte outside `A–Z a–z 2–7`, or padding followed by something else; the offset is
    /// counted in bytes from the start.
    case invalidCharacter(offset: Int)
    /// A count of symbols no encoding produces (1, 3 or 6 beyond a whole group of 8).
    case impossibleLength(Int)
    /// Padding that does not complete the last group of 8 exactly.
    case wrongPadding
    /// The last symbol sets bits below the last whole byte, so the text is not what any
    /// encoder writes for its value.
    case nonZeroTrailingBits
}
