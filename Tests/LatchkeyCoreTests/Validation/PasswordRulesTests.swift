import LatchkeyCore
import Testing

extension ValidationRulesTests {
    @Suite struct PasswordRulesTests {
        /// One `Character` but seven Unicode scalars (four people joined by three ZWJs).
        static let family = "👩‍👩‍👧‍👦"

        @Test(arguments: [
            ("zq8!vm#", "7 ASCII scalars"),
            (family, "7 scalars in one Character"),
            ("", "empty"),
            ("qwerty", "common but short: the length rule answers first"),
        ])
        func refusesTooShortAndSaysTheMinimum(password: String, why: String) throws {
            let failure = try #require(PasswordRules.check(password), "\(why)")
            #expect(failure == ValidationFailure(field: "password", rule: .passwordTooShort))
        }

        @Test(arguments: [
            "zq8!vm#k",
            family + "x",
            String(repeating: "😀🙃", count: 63) + "🐙x",
            "\u{E9}lan vital, fa\u{E7}ade, na\u{EF}ve caf\u{E9}, cr\u{E8}me br\u{FB}l\u{E9}e, Z\u{FC}rich, \u{C5}ngstr\u{F6}m, S\u{F8}ren",
            "correct-horse-battery-staple-9183",
            "Tr0ub4dor&3-but-much-longer-k2P!",
        ])
        func acceptsFrom8To128Scalars(password: String) {
            #expect(PasswordRules.check(password) == nil)
        }

        @Test(arguments: [String(repeating: "😀", count: 129), String(repeating: "a1", count: 65), String(repeating: "x", count: 10_000)])
        func refusesOver128Scalars(password: String) throws {
            let failure = try #require(PasswordRules.check(password))
            #expect(failure.rule == .passwordTooLong)
        }

        @Test(arguments: ["password", "Password", "PASSWORD", "123456789", "qwertyuiop", "QwertyUIOP", "iloveyou1"])
        func refusesCommonPasswordsWhateverTheirCase(password: String) throws {
            let failure = try #require(PasswordRules.check(password))
            #expect(failure.rule == .passwordCommon)
        }

        /// NIST asks to refuse repetitive and sequential passwords, which no list holds in full.
        @Test(arguments: [
            ("aaaaaaaaa", ValidationRule.passwordRepetitive),
            ("00000000", .passwordRepetitive),
            ("abcabcabc", .passwordRepetitive),
            ("XyZ!XyZ!XyZ!", .passwordRepetitive),
            ("😀😀😀😀😀😀😀😀", .passwordRepetitive),
            ("abcdefghij", .passwordSequential),
            ("87654321", .passwordSequential),
            ("12345678abc", .passwordSequential),
            ("ABCDefgh", .passwordSequential),
            ("zyxw98765", .passwordSequential),
            ("aaaa12345", .passwordSequential),
        ])
        func refusesRepetitiveAndSequentialPasswords(password: String, rule: ValidationRule) throws {
            let failure = try #require(PasswordRules.check(password), "\(password)")
            #expect(failure.rule == rule, "\(password)")
        }

        @Test(arguments: ["correct horse battery", "Tr0ub4dor&3", "abc12345xyz!", "lighthouse-Quokka-42", "aabbccddeeff-q"])
        func acceptsPasswordsThatOnlyContainASequence(password: String) {
            #expect(PasswordRules.check(password) == nil, "\(password)")
        }

        /// The rules read the NFKC form: a full-width "１２３４５６７８" is "12345678".
        @Test func checksTheNormalisedForm() throws {
            #expect(try #require(PasswordRules.check("ｚｙｘｗｖｕｔｓ")).rule == .passwordSequential)
            #expect(try #require(PasswordRules.check("ｐａｓｓｗｏｒｄ")).rule == .passwordCommon)
        }

        @Test func namesTheFieldItWasAskedAbout() throws {
            let failure = try #require(PasswordRules.check("short", field: "newPassword"))
            #expect(failure.field == "newPassword")
        }
    }
}
