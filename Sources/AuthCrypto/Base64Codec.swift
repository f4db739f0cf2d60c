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
    /// Each byte's symbol value, `invalid` for a byte that is not a symbol: a provider's ID
    /// token is some 1,000 symbols, and telling each symbol by ranges, one at a time, was
    /// 5% of a provider sign-in's time on the task threads.
    private let decoding: [UInt8]

    init(symbol62: UInt8, symbol63: UInt8) {
        self.symbol62 = symbol62
        self.symbol63 = symbol63
        alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8) + [symbol62, symbol63]
        var decoding = [UInt8](repeating: Self.invalid, count: 256)
        for (value, symbol) in alphabet.enumerated() { decoding[Int(symbol)] = UInt8(value) }
        self.decoding = decoding
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
        guard output.count == Self.decodedLength(ofEncodedCount: input.count) else { return false }
        return decoding.withUnsafeBufferPointer { table in
            // Symbols are below 64 and `invalid` is not: one test of the OR of every value
            // read tells whether any was invalid, without a branch per character.
            var seen: UInt8 = 0
            var index = 0
            var out = 0
            while input.count - index >= 4 {
                let (a, b, c, d) = (table[Int(input[index])], table[Int(input[index + 1])], table[Int(input[index + 2])], table[Int(input[index + 3])])
                seen |= a | b | c | d
                let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                output[out] = UInt8(truncatingIfNeeded: group >> 16)
                output[out + 1] = UInt8(truncatingIfNeeded: group >> 8)
                output[out + 2] = UInt8(truncatingIfNeeded: group)
                index += 4
                out += 3
            }
            var leftover: UInt8 = 0
            switch input.count - index {
            case 2:
                let (a, b) = (table[Int(input[index])], table[Int(input[index + 1])])
                seen |= a | b
                output[out] = a << 2 | b >> 4
                leftover = b & 0x0F
            case 3:
                let (a, b, c) = (table[Int(input[index])], table[Int(input[index + 1])], table[Int(input[index + 2])])
                seen |= a | b | c
                output[out] = a << 2 | b >> 4
                output[out + 1] = b << 4 | c >> 2
                leftover = c & 0x03
            default:
                break
            }
            return seen & ~0x3F == 0 && leftover == 0
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
