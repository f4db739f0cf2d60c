import Testing
import TestSupport

extension Factors {
    /// The test's phone must itself be right before it judges the server.
    @Suite struct TestAuthenticator {
        /// RFC 6238 Appendix B, SHA-1 rows (8 digits, the secret "12345678901234567890").
        @Test(arguments: [
            (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"),
            (1_234_567_890, "89005924"), (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
        ] as [(UInt64, String)])
        func computesTheRFC6238Vectors(_ time: UInt64, _ expected: String) {
            #expect(TestTOTP.code(secret: Array("12345678901234567890".utf8), step: time / 30, digits: 8) == expected)
        }

        @Test func decodesBase32() {
            #expect(TestTOTP.base32Decoded("MZXW6YTBOI======") == Array("foobar".utf8), "RFC 4648's own example")
            #expect(TestTOTP.base32Decoded("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ") == Array("12345678901234567890".utf8))
        }
    }
}
