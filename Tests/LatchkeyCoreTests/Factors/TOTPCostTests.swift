import AuthCrypto
@testable import LatchkeyCore
import Testing

/// The target: "a TOTP check costs no more than 1/100 of one password hash". A
/// TOTP check is three HMAC-SHA-1 runs, a password hash 600,000 PBKDF2 rounds, so the
/// ratio is tens of thousands, not a hundred. The test prints what it measured; its only
/// assertion is the target itself, a ratio measured under the same load on both sides
/// (not a wall-clock limit), which a machine would have to be a thousand times unevenly
/// loaded to miss.
@Suite struct TOTPCostTests {
    @Test func aCheckCostsFarLessThanAHundredthOfAPasswordHash() {
        let clock = ContinuousClock()
        let hasher = PasswordHasher()
        let hashTime = clock.measure { _ = hasher.hash("correct horse battery staple") }

        let totp = TOTP.generate()
        let submitted = Array("123456".utf8)
        let now: Int64 = 1_800_000_000
        var checks = 0
        var wrong = 0
        let start = clock.now
        // Bounded: stops at the hash's time or at ten million checks, whichever comes first.
        while clock.now - start < hashTime && checks < 10_000_000 {
            if totp.check(submitted, at: now + Int64(checks), lastAcceptedStep: nil) == .wrong { wrong += 1 }
            checks += 1
        }
        print("TOTP cost: \(checks) checks ran in the time of one password hash (\(hashTime), \(PasswordHasher.defaultIterations) iterations); the target is at least 100")
        #expect(wrong > 0, "the checks ran")
        #expect(checks >= 100)
    }
}
