/// The URL-safe alphabet without padding (RFC 4648 §5, RFC 7515 §2): what JWT segments
/// and opaque tokens in URLs use, so they never need percent-encoding.
public enum Base64URL {
    public static func encode(_ bytes: [UInt8]) -> String {
        Base64Codec.url.encode(bytes)
    }

    /// Returns nil for padding, whitespace, `+`/`/`, impossible lengths, or non-canonical
    /// trailing bits: a strict decoder keeps one spelling per value.
    public static func decode(_ s: String) -> [UInt8]? {
        Base64Codec.url.decode(s)
    }

    /// `decode(_:)` of characters read where they lie (a token's bytes), with no string
    /// made of them first.
    public static func decode(_ characters: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        Base64Codec.url.decode(characters)
    }
}
