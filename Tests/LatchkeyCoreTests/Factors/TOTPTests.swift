@testable import LatchkeyCore
import Testing

@Suite struct TOTPTests {
    /// RFC 6238 Appendix B's seed for SHA-1: the ASCII digits "1234567890" twice (20 bytes).
    static let rfcSecret = Array("12345678901234567890".utf8)

    /// RFC 6238 Appendix B, the SHA-1 rows: time, step (hex in the RFC), 8-digit code.
    static let rfcVectors: [(time: Int64, step: Int64, code: String)] = [
        (59, 0x1, "94287082"),
        (1_111_111_109, 0x23523EC, "07081804"),
        (1_111_111_111, 0x23523ED, "14050471"),
        (1_234_567_890, 0x273EF07, "89005924"),
        (2_000_000_000, 0x3F940AA, "69279037"),
        (20_000_000_000, 0x27BC86AA, "65353130"),
    ]

    @Test func matchesRFC6238AppendixBForSHA1() {
        let totp = TOTP(secret: Self.rfcSecret, digits: 8)
        for (time, step, code) in Self.rfcVectors {
            #expect(TOTP.step(at: time) == step, "T = \(time)")
            #expect(totp.code(at: time) == code, "T = \(time)")
        }
    }

    /// Six digits are the truncated value modulo 10^6: the last six of the RFC's eight.
    @Test func sixDigitCodesAreTheLastSixOfTheRFCsEight() {
        let totp = TOTP(secret: Self.rfcSecret)
        for (time, _, code) in Self.rfcVectors {
            #expect(totp.code(at: time) == String(code.suffix(6)), "T = \(time)")
        }
    }

    @Test func stepsAreThirtySecondsFromTheEpochAndLeadingZerosStay() {
        #expect(TOTP.step(at: 0) == 0)
        #expect(TOTP.step(at: 29) == 0)
        #expect(TOTP.step(at: 30) == 1)
        #expect(TOTP.step(at: -1) == -1, "before 1970: a negative step, which no code opens")
        #expect(TOTP.step(at: -30) == -1)
        #expect(TOTP.step(at: -31) == -2)
        // 07081804 at 1111111109: the six digits keep their leading zero.
        #expect(TOTP(secret: Self.rfcSecret).code(at: 1_111_111_109) == "081804")
        #expect(TOTP(secret: Self.rfcSecret, digits: 8).code(at: 1_111_111_109) == "07081804")
    }

    @Test func aFreshFactorHasA160BitSecretAndItsOwn() {
        let first = TOTP.generate()
        let second = TOTP.generate()
        #expect(first.secret.count == 20)
        #expect(first.base32Secret.count == 32, "160 bits in base32, no padding")
        #expect(first.secret != second.secret)
    }

    @Test func neverShowsItsSecretWhenInterpolated() {
        let totp = TOTP(secret: Self.rfcSecret)
        #expect("\(totp)" == "TOTP(6 digits, secret redacted)")
        #expect(!String(reflecting: totp).contains(totp.base32Secret))
    }
}
