/// One strict, unpadded base64 codec shared by the two alphabets we speak. Foundation's
/// decoder wants padding and accepts characters we must refuse, and it works on `Data`;
/// this one reads borrowed bytes so token verification does not copy the token.
struct Base64Codec: Sendable {
    /// The two symbols that differ between alphabets: `-_` (RFC 4648 §5) or `+/` (§4).
    let symbol62: UInt8
    let symbol63: UInt8
    /// The 64 symbols in order, looked up when encoding: a token's payload is some 400
    /// symbols, and choosing each by ranges cost twice the instructions.
    private let alphabet: [UInt8]

    init(symbol62: UInt8, symbol63: UInt8) {
        self.symbol62 = symbol62
        self.symbol63 = symbol63
        alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8) + [symbol62, symbol63]
    }

    static let url = Base64Codec(symbol62: UInt8(ascii: "-"), symbol63: UInt8(ascii: "_"))
    static let standard = Base64Codec(symbol62: UInt8(ascii: "+"), symbol63: UInt8(ascii: "/"))

    private static let invalid: UInt8 = 0xFF

    // MARK: Encoding

    func encode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let length = Self.encodedLength(ofByteCount: bytes.count)
        guard length > 0 else { return "" }
        return String(unsafeUninitializedCapacity: length) { encode(bytes, into: $0) }
    }

    /// Characters the unpadded encoding of `count` bytes takes.
    static func encodedLength(ofByteCount count: Int) -> Int {
        count / 3 * 4 + (count % 3 == 0 ? 0 : count % 3 + 1)
    }

    /// Writes the encoding of `bytes` at the start of `output`, which holds at least
    /// `encodedLength(ofByteCount:)` bytes; returns how many it wrote.
    func encode(_ bytes: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let fullGroups = bytes.count / 3
        let remainder = bytes.count % 3
        precondition(output.count >= Self.encodedLength(ofByteCount: bytes.count), "Base64Codec: output buffer too small")
        return alphabet.withUnsafeBufferPointer { alphabet in
            func symbol(for sextet: UInt32) -> UInt8 {
                alphabet[Int(sextet & 0x3F)]
            }
            var out = 0
            var index = 0
            for _ in 0..<fullGroups {
                let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                output[out] = symbol(for: group >> 18)
                output[out + 1] = symbol(for: group >> 12)
                output[out + 2] = symbol(for: group >> 6)
                output[out + 3] = symbol(for: group)
                index += 3
                out += 4
            }
            if remainder == 1 {
                let group = UInt32(bytes[index]) << 16
                output[out] = symbol(for: group >> 18)
                output[out + 1] = symbol(for: group >> 12)
                out += 2
            } else if remainder == 2 {
                let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
                output[out] = symbol(for: group >> 18)
                output[out + 1] = symbol(for: group >> 12)
                output[out + 2] = symbol(for: group >> 6)
                out += 3
            }
            return out
        }
    }

    // MARK: Decoding

    /// Bytes a valid unpadded encoding of `count` characters decodes to; nil when no
    /// valid encoding has that length (a lone trailing character carries < 8 bits).
    static func decodedLength(ofEncodedCount count: Int) -> Int? {
        switch count % 4 {
        case 0: return count / 4 * 3
        case 2: return count / 4 * 3 + 1
        case 3: return count / 4 * 3 + 2
        default: return nil
        }
    }

    func decode(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let length = Self.decodedLength(ofEncodedCount: input.count) else { return nil }
        var valid = true
        let result = [UInt8](unsafeUninitializedCapacity: length) { output, initialized in
            valid = decode(input, into: output)
            initialized = valid ? length : 0
        }
        return valid ? result : nil
    }

    /// Decodes into `output`, which must hold exactly `decodedLength(ofEncodedCount:)`
    /// bytes. Refuses padding, whitespace, the other alphabet's symbols, and non-zero
    /// leftover bits, so every byte string has exactly one accepted encoding (a token
    /// cannot be altered into a different string that still verifies).
    func decode(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        var accumulator: UInt32 = 0
        var bits = 0
        var out = 0
        for character in input {
            let value = self.value(of: character)
            guard value != Self.invalid else { return false }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output[out] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
                out += 1
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        return accumulator == 0 && out == output.count
    }

    private func value(of character: UInt8) -> UInt8 {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return character - UInt8(ascii: "0") + 52
        case symbol62: return 62
        case symbol63: return 63
        default: return Self.invalid
        }
    }
}

extension Base64Codec {
    func encode(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { encode($0) }
    }

    func decode(_ string: String) -> [UInt8]? {
        var string = string
        // Native Swift strings are contiguous UTF-8 already; this only copies bridged ones.
        return string.withUTF8 { decode($0) }
    }
}
