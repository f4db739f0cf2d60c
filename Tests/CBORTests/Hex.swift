extension Array where Element == UInt8 {
    /// RFC 8949's examples are printed as hex; spaces are allowed for reading, and a
    /// malformed literal is a bug in the test.
    init(hex: String) {
        let digits = Array(hex.utf8.filter { $0 != UInt8(ascii: " ") })
        precondition(digits.count.isMultiple(of: 2), "odd-length hex literal")
        func nibble(_ c: UInt8) -> UInt8 {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            default: preconditionFailure("bad hex digit")
            }
        }
        self = stride(from: 0, to: digits.count, by: 2).map { nibble(digits[$0]) << 4 | nibble(digits[$0 + 1]) }
    }
}
