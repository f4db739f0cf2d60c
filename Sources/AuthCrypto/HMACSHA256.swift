/// HMAC-SHA256 is the only MAC Latchkey needs: it signs access tokens (JWT HS256) and
/// derives opaque token fingerprints. No state is kept between calls, so nothing is
/// shared or locked.
public enum HMACSHA256 {
    public static let codeLength = 32

    public static func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
        HMACKey(key).authenticationCode(message)
    }
}
