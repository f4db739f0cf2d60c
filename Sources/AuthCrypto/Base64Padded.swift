/// The standard alphabet with `=` padding (RFC 4648 §4): how Firebase writes password
/// hashes, salts and its project's hash parameters.
public enum Base64Padded {
    /// The bytes of a padded encoding, or of an unpadded one (people trim the `=` when they
    /// copy a value out of a console). Nil for whitespace, the URL alphabet, padding
    /// anywhere but at the end, or non-canonical trailing bits.
    public static func decode(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding == 0 || (padding <= 2 && bytes.count.isMultiple(of: 4)) else { return nil }
        return bytes.dropLast(padding).withUnsafeBufferPointer { Base64Codec.standard.decode($0) }
    }

    public static func encode(_ bytes: [UInt8]) -> String {
        let unpadded = Base64Codec.standard.encode(bytes)
        return unpadded + String(repeating: "=", count: (4 - unpadded.utf8.count % 4) % 4)
    }
}
