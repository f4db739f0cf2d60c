import LatchkeyCore
import Testing

extension ValidationRulesTests {
    @Suite struct DisplayNameRulesTests {
        @Test(arguments: ["ada.lovelace", "Ada_L", "a.b.c", "abc", "___", "_ada_", "ada.l_1", "0xC0FFEE", String(repeating: "a", count: 30)])
        func acceptsValidNames(name: String) {
            #expect(DisplayNameRules.check(name) == .valid)
            #expect(DisplayNameRules.check(name).failure == nil)
        }

        @Test(arguments: [
            ("ab", DisplayNameInvalidReason.TOO_SHORT),
            ("a", .TOO_SHORT),
            ("", .TOO_SHORT),
            (String(repeating: "a", count: 31), .TOO_LONG),
            (".ada", .LEADING_OR_TRAILING_PERIOD),
            ("ada.", .LEADING_OR_TRAILING_PERIOD),
            ("a..b", .CONSECUTIVE_PERIODS),
            ("ada-l", .INVALID_CHARACTERS),
            ("ada l", .INVALID_CHARACTERS),
            (" ada", .INVALID_CHARACTERS),
            ("ada\n", .INVALID_CHARACTERS),
            ("ádá", .INVALID_CHARACTERS),
            ("ａｄａ", .INVALID_CHARACTERS),
            ("ada😀", .INVALID_CHARACTERS),
            ("ada@l", .INVALID_CHARACTERS),
        ])
        func refusesWithReason(name: String, reason: DisplayNameInvalidReason) throws {
            #expect(DisplayNameRules.check(name) == .invalid(reason))
            let failure = try #require(DisplayNameRules.check(name).failure)
            #expect(failure == ValidationFailure(field: "displayName", rule: .displayName(reason)))
        }

        /// The order documented on `DisplayNameRules.check`: a reason that typing on cannot
        /// fix beats one that it can, and bad characters beat length.
        @Test(arguments: [
            ("á", DisplayNameInvalidReason.INVALID_CHARACTERS, "short and invalid"),
            ("Ada Lovelace Countess of Lovelace", .INVALID_CHARACTERS, "long and invalid"),
            ("a.-", .INVALID_CHARACTERS, "trailing period and invalid"),
            ("ada..", .CONSECUTIVE_PERIODS, "trailing and consecutive periods"),
            ("..ada", .CONSECUTIVE_PERIODS, "leading and consecutive periods"),
            ("..", .CONSECUTIVE_PERIODS, "short and consecutive periods"),
            (".", .LEADING_OR_TRAILING_PERIOD, "short and leading period"),
            ("a.", .LEADING_OR_TRAILING_PERIOD, "short and trailing period"),
            ("." + String(repeating: "a", count: 30), .LEADING_OR_TRAILING_PERIOD, "long and leading period"),
        ])
        func reportsTheMostUsefulReasonFirst(name: String, reason: DisplayNameInvalidReason, why: String) {
            #expect(DisplayNameRules.check(name).reason == reason, "\(why)")
        }

        @Test(arguments: DisplayNameInvalidReason.allCases)
        func everyReasonHasARawValueMatchingTheAPIAndASentence(reason: DisplayNameInvalidReason) {
            #expect(reason.rawValue == "\(reason)")
        }

        @Test func keyIsLowerCasedSoSpellingsCollide() {
            #expect(DisplayNameRules.key("Ada.L") == "ada.l")
            #expect(DisplayNameRules.key("Ada.L") == DisplayNameRules.key("ada.l"))
            #expect(DisplayNameRules.key("ADA_L") != DisplayNameRules.key("ada.l"))
        }
    }

    @Suite struct ReservedDisplayNamesTests {
        let reserved = ReservedDisplayNames(["admin", "Support", "me"])

        @Test(arguments: ["admin", "ADMIN", "Admin", "support", "SUPPORT", "me", "Me"])
        func refusesReservedNamesInAnyCase(name: String) {
            #expect(reserved.contains(name))
        }

        @Test(arguments: ["admin2", "administrator", "supporter", "ada", "mee", ""])
        func allowsNamesThatOnlyResembleOne(name: String) {
            #expect(!reserved.contains(name))
        }

        @Test func anEmptyListReservesNothing() {
            #expect(!ReservedDisplayNames([]).contains("admin"))
        }
    }
}
