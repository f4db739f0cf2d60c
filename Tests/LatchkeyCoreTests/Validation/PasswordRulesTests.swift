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
            #expect(failure.code == "WEAK_PASSWORD")
            #expect(failure.field == "password")
            #expect(failure.detail.contains("short"))
            #expect(failure.detail.contains("8"))
        }

        @Test(arguments: [
            "zq8!vm#k",
            family + "x",
            String(repeating: "😀", count: 128),
            String(repeating: "é", count: 128),
            "correct-horse-battery-staple-9183",
            "Tr0ub4dor&3-but-much-longer-k2P!",
        ])
        func acceptsFrom8To128Scalars(password: String) {
            #expect(PasswordRules.check(password) == nil)
        }

        @Test(arguments: [String(repeating: "😀", count: 129), String(repeating: "a1", count: 65), String(repeating: "x", count: 10_000)])
        func refusesOver128Scalars(password: String) throws {
            let failure = try #require(PasswordRules.check(password))
            #expect(failure.code == "WEAK_PASSWORD")
            #expect(failure.detail.contains("long"))
            #expect(failure.detail.contains("128"))
        }

        @Test(arguments: ["password", "Password", "PASSWORD", "123456789", "qwertyuiop", "QwertyUIOP", "iloveyou1"])
        func refusesCommonPasswordsWhateverTheirCase(password: String) throws {
            let failure = try #require(PasswordRules.check(password))
            #expect(failure.code == "WEAK_PASSWORD")
            #expect(failure.detail.contains("common"))
        }

        @Test func namesTheFieldItWasAskedAbout() throws {
            let failure = try #require(PasswordRules.check("short", field: "newPassword"))
            #expect(failure.field == "newPassword")
        }
    }
}
