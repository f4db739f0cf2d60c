import AuthCrypto
import Testing
import TestSupport

/// RFC 2202 §3, all seven cases (case 5's full output; TOTP never truncates the MAC itself).
@Suite("HMAC-SHA1 (RFC 2202)")
struct HMACSHA1Tests {
    static let cases: [(name: String, key: [UInt8], message: [UInt8], code: String)] = [
        ("1", [UInt8](repeating: 0x0B, count: 20), Array("Hi There".utf8),
         "b617318655057264e28bc0b6fb378c8ef146be00"),
        ("2, a key shorter than the output", Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
         "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
        ("3", [UInt8](repeating: 0xAA, count: 20), [UInt8](repeating: 0xDD, count: 50),
         "125d7342b9ac11cd91a39af48aa17b4f63f175d3"),
        ("4", Array(1...25), [UInt8](repeating: 0xCD, count: 50),
         "4c9007f4026250c6bc8414f9bf50c86c2d7235da"),
        ("5", [UInt8](repeating: 0x0C, count: 20), Array("Test With Truncation".utf8),
         "4c1a03424b55e07fe7f27be1d58bb9324a9a5a04"),
        ("6, a key longer than the block", [UInt8](repeating: 0xAA, count: 80),
         Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         "aa4ae5e15272d00e95705637ce8a3b55ed402112"),
        ("7, key and message longer than the block", [UInt8](repeating: 0xAA, count: 80),
         Array("Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data".utf8),
         "e8e99d0f45237d786d6bbaa7965c7808bbff1a91"),
    ]

    @Test func matchesEveryRFC2202Case() {
        for (name, key, message, code) in Self.cases {
            let computed = HMACSHA1.authenticationCode(key: key, message: message)
            #expect(computed.count == HMACSHA1.codeLength, "case \(name)")
            #expect(computed.hex == code, "case \(name)")
        }
    }

    /// Empty arrays may have no base address; OpenSSL must still get pointers.
    @Test func takesAnEmptyKeyAndMessage() {
        #expect(HMACSHA1.authenticationCode(key: [], message: []).hex == "fbdb1d1b18aa6c08324b7d64b71fb76370690e1d")
    }
}
