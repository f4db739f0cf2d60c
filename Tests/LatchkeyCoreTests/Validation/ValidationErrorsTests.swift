import LatchkeyCore
import Testing

extension ValidationRulesTests {
    @Suite struct ValidationErrorsTests {
        @Test func collectingNothingButPassesIsNoError() {
            #expect(ValidationErrors(collecting: [nil, nil]) == nil)
            #expect(ValidationErrors(collecting: []) == nil)
        }

        @Test func collectsEveryFailedFieldInOrder() throws {
            let errors = try #require(ValidationErrors(collecting: [
                EmailRules.normalize("ada@example").emailFailure,
                PasswordRules.check("correct-horse-battery-staple"),
                PasswordRules.check("short"),
                DisplayNameRules.check("a..b").failure,
            ]))
            #expect(errors.failures.map(\.field) == ["email", "password", "displayName"])
            #expect(errors.failures.map(\.rule) == [.emailMalformed, .passwordTooShort, .displayName(.CONSECUTIVE_PERIODS)])
            #expect(errors.first.field == "email")
        }
    }
}
