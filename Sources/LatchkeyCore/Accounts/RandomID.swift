import AuthCrypto

/// Identifiers drawn from the OS random source.
enum RandomID {
    /// 128 bits as 32 lower-case hex digits: user and session ids.
    static func make() -> String {
        hex(SecureRandom.bytes(16))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
