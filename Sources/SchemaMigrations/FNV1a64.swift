/// 64-bit FNV-1a: tiny, stable across platforms and releases, and needs no crypto library.
/// Used only to notice edits; it is not collision resistant against anyone trying.
enum FNV1a64 {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    static func hash(_ text: String) -> UInt64 {
        var hash = offsetBasis
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* prime
        }
        return hash
    }

    static func hex(of text: String) -> String {
        let digits = String(hash(text), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
