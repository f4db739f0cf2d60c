/// Decodes bytea's text output (results are requested as text): the hex form `\x0aff`
/// that PostgreSQL sends by default, and the escape form (`a\\\001`, bytea_output=escape),
/// so a server configured either way reads back the same bytes.
enum ByteaText {
    static func decode(_ text: UnsafeRawBufferPointer) -> [UInt8] {
        if text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x") {
            return decodeHex(text.dropFirst(2))
        }
        return decodeEscape(text)
    }

    private static func decodeHex(_ digits: Slice<UnsafeRawBufferPointer>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var high: UInt8?
        for digit in digits {
            guard let value = nibble(digit) else { continue }   // the server never sends anything else
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// `\\` is a backslash, `\nnn` an octal byte, anything else itself.
    private static func decodeEscape(_ text: UnsafeRawBufferPointer) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            let byte = text[index]
            if byte == UInt8(ascii: "\\"), index + 1 < text.count {
                if text[index + 1] == UInt8(ascii: "\\") {
                    bytes.append(byte)
                    index += 2
                    continue
                }
                if index + 3 < text.count {
                    let digits = [text[index + 1], text[index + 2], text[index + 3]].map { $0 &- UInt8(ascii: "0") }
                    if digits.allSatisfy({ $0 < 8 }) {
                        bytes.append(digits[0] << 6 | digits[1] << 3 | digits[2])
                        index += 4
                        continue
                    }
                }
            }
            bytes.append(byte)
            index += 1
        }
        return bytes
    }
}
