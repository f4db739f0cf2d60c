import COpenSSL

/// HMAC-SHA-1 (RFC 2104) exists here for one reason: RFC 6238 TOTP, whose codes every
/// authenticator app computes with SHA-1. HMAC's security does not rest on SHA-1's
/// collision resistance (RFC 6194 §3.3), so this is sound for one-time codes; it is
/// not for signing anything new, which keeps using `HMACSHA256`.
///
/// OpenSSL's one-shot `HMAC()` is enough, without `HMACKey`'s precomputed pads: a TOTP
/// check runs it three times (the step and one on each side) and still costs about a
/// ten-thousandth of one password hash (LatchkeyCore's `TOTPCostTests` prints the ratio).
public enum HMACSHA1 {
    public static let codeLength = 20

    public static func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
        // OpenSSL wants non-NULL pointers even for empty input, and an empty array may have
        // none; a one-byte stand-in with a length of 0 is never read.
        let key = key.isEmpty ? (bytes: [UInt8(0)], count: 0) : (bytes: key, count: key.count)
        let message = message.isEmpty ? (bytes: [UInt8(0)], count: 0) : (bytes: message, count: message.count)
        var output = [UInt8](repeating: 0, count: codeLength)
        var length: UInt32 = 0
        let result = HMAC(EVP_sha1(), key.bytes, Int32(key.count), message.bytes, message.count, &output, &length)
        // HMAC() fails only on allocation failure inside OpenSSL; a garbage code would
        // accept or refuse at random, so trapping is safer.
        guard result != nil, length == UInt32(codeLength) else {
            fatalError("HMAC(SHA-1) failed")
        }
        return output
    }
}
