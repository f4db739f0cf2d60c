@testable import LatchkeyCore
import Testing

@Suite struct TOTPCheckTests {
    static let totp = TOTP(secret: Array("12345678901234567890".utf8))
    /// 1111111111 is step 0x23523ED (RFC 6238 Appendix B), 1 s into it.
    static let now: Int64 = 1_111_111_111
    static let step = TOTP.step(at: now)

    static func code(_ step: Int64) -> [UInt8] { totp.code(forStep: step) }

    @Test func acceptsTheCurrentStepAndOneEitherSideNamingTheStep() {
        #expect(Self.totp.check(Array("050471".utf8), at: Self.now, lastAcceptedStep: nil) == .accepted(step: Self.step))
        #expect(Self.totp.check(Self.code(Self.step - 1), at: Self.now, lastAcceptedStep: nil) == .accepted(step: Self.step - 1))
        #expect(Self.totp.check(Self.code(Self.step + 1), at: Self.now, lastAcceptedStep: nil) == .accepted(step: Self.step + 1))
    }

    @Test func refusesCodesTwoStepsAwayOrMore() {
        for offset: Int64 in [-3, -2, 2, 3] {
            #expect(Self.totp.check(Self.code(Self.step + offset), at: Self.now, lastAcceptedStep: nil) == .wrong, "offset \(offset)")
        }
    }

    @Test func theWindowFollowsTheClockAtStepBoundaries() {
        let start = Self.step * TOTP.period
        let code = Self.code(Self.step)
        #expect(Self.totp.check(code, at: start - TOTP.period, lastAcceptedStep: nil) == .accepted(step: Self.step), "a step early")
        #expect(Self.totp.check(code, at: start - TOTP.period - 1, lastAcceptedStep: nil) == .wrong)
        #expect(Self.totp.check(code, at: start + 2 * TOTP.period - 1, lastAcceptedStep: nil) == .accepted(step: Self.step), "a step late")
        #expect(Self.totp.check(code, at: start + 2 * TOTP.period, lastAcceptedStep: nil) == .wrong)
    }

    @Test func refusesAnythingButExactlySixASCIIDigits() {
        let correct = Array("050471".utf8)
        let malformed: [(String, [UInt8])] = [
            ("empty", []),
            ("five digits", Array(correct.prefix(5))),
            ("seven digits", correct + [UInt8(ascii: "0")]),
            ("a leading space", [UInt8(ascii: " ")] + correct.prefix(5)),
            ("a trailing newline", correct + [0x0A]),
            ("a space in the middle", Array("050 471".utf8)),
            ("a sign", Array("+50471".utf8)),
            ("full-width digits", Array("０５０４７１".utf8)),
            ("Arabic-Indic digits", Array("٠٥٠٤٧١".utf8)),
            ("a NUL", Array("05047".utf8) + [0]),
            ("the RFC's eight digits", Array("14050471".utf8)),
            ("a long run", [UInt8](repeating: UInt8(ascii: "0"), count: 100_000)),
        ]
        for (name, bytes) in malformed {
            #expect(Self.totp.check(bytes, at: Self.now, lastAcceptedStep: nil) == .malformed, "\(name)")
        }
    }

    @Test func aWrongCodeOfSixDigitsIsWrongNotMalformed() {
        let correct = Self.code(Self.step)
        var wrong = correct
        wrong[5] = wrong[5] == UInt8(ascii: "9") ? UInt8(ascii: "0") : wrong[5] + 1
        #expect(Self.totp.check(wrong, at: Self.now, lastAcceptedStep: nil) == .wrong)
        #expect(TOTP(secret: Array(repeating: 7, count: 20)).check(correct, at: Self.now, lastAcceptedStep: nil) == .wrong, "another secret")
    }

    /// The attacker stands behind the victim in a café and reads the six digits she types.
    /// She signs in with them; at once, within the same 30 seconds, the attacker types them
    /// on his own phone, with her password from an old breach. The step she used is
    /// stored as her last accepted one, so his copy is a replay and refused; so is any code
    /// of an earlier step he might have seen, still inside the window.
    @Test func aCodeIsAcceptedOnceAndNoEarlierStepAfterIt() {
        let seen = Self.code(Self.step)
        guard case .accepted(let used) = Self.totp.check(seen, at: Self.now, lastAcceptedStep: nil) else {
            Issue.record("the victim's code was refused")
            return
        }
        #expect(Self.totp.check(seen, at: Self.now + 5, lastAcceptedStep: used) == .replayed(step: Self.step))
        #expect(Self.totp.check(Self.code(Self.step - 1), at: Self.now + 5, lastAcceptedStep: used) == .replayed(step: Self.step - 1))
        // Her next code, of the next step, still works.
        #expect(Self.totp.check(Self.code(Self.step + 1), at: Self.now + 30, lastAcceptedStep: used) == .accepted(step: Self.step + 1))
    }

    /// Before 1970 there is no step 0 - 1 to open; a broken clock refuses rather than traps.
    @Test func aClockBeforeTheEpochOpensNothing() {
        #expect(Self.totp.check(Self.code(0), at: -1, lastAcceptedStep: nil) == .accepted(step: 0), "step 0 is one step ahead")
        #expect(Self.totp.check(Self.code(0), at: -31, lastAcceptedStep: nil) == .wrong)
        #expect(Self.totp.check(Self.code(0), at: 10, lastAcceptedStep: nil) == .accepted(step: 0))
    }
}
