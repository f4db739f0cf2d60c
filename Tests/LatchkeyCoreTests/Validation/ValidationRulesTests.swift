import LatchkeyCore
import Testing

/// The input rules of the API's "Validation rules" section; one nested suite per type.
/// Helpers live inside it so they cannot collide with other suites of the test target.
@Suite enum ValidationRulesTests {
    /// Deterministic, so a failing generated input shows up on every run.
    struct SeededGenerator: RandomNumberGenerator {
        private var state: UInt64
        init(seed: UInt64) { state = seed }

        /// SplitMix64.
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}

extension Result<ValidEmail, ValidationFailure> {
    /// The failure, or nil on success: lets a test read it without a `catch`.
    var emailFailure: ValidationFailure? {
        if case .failure(let failure) = self { failure } else { nil }
    }
}
