extension Array where Element == UInt8 {
    /// Test vectors are published as hex (RFC 8949's with spaces, for reading); a malformed
    /// literal is a bug in the test.
    public init(hex: String) {
        let digits = Array(hex.utf8.filter { $0 != UInt8(ascii: " ") })
        precondition(digits.count.isMultiple(of: 2), "odd-length hex literal")
        func nibble(_ c: UInt8) -> UInt8 {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: preconditionFailure("bad hex digit")
            }
        }
        self = stride(from: 0, to: digits.count, by: 2).map { nibble(digits[$0]) << 4 | nibble(digits[$0 + 1]) }
    }

    public var hex: String {
        map { byte in
            let digits = Array("0123456789abcdef".utf8)
            return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]], as: UTF8.self)
        }.joined()
    }
}
