/// The standard alphabet without padding: the "B64" encoding of the PHC string format,
/// which is how password hashes are stored (`$pbkdf2-sha256$i=...$<salt>$<hash>`).
public enum Base64Unpadded {
    public static func encode(_ bytes: [UInt8]) -> String {
        Base64Codec.standard.encode(bytes)
    }

    /// Returns nil for padding, whitespace, `-`/`_`, impossible lengths, or non-canonical
    /// trailing bits.
    public static func decode(_ s: String) -> [UInt8]? {
        Base64Codec.standard.decode(s)
    }
}
