/// Comparing MACs and password hashes with `==` stops at the first differing byte, which
/// lets an attacker learn a valid signature byte by byte from response times.
public enum ConstantTime {
    /// Time depends only on the lengths, never on where the bytes differ. Lengths are
    /// public (a MAC is always 32 bytes), so the early length check leaks nothing.
    public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in equals(a, b) }
        }
    }

    static func equals(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in 0..<a.count {
            difference |= a[index] ^ b[index]
        }
        return difference == 0
    }
}
