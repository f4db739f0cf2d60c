import Foundation
@testable import LatchkeyCore
import Testing

extension ValidationRulesTests {
    @Suite struct EmailRulesTests {
        static let longestDomain = "@example.com"
        static let address254 = String(repeating: "a", count: 254 - longestDomain.count) + longestDomain
        static let address255 = "a" + address254

        @Test(arguments: [
            ("ada@example.com", "ada@example.com"),
            ("  Ada.Lovelace@Example.COM \n", "Ada.Lovelace@Example.COM"),
            ("\tada@example.com", "ada@example.com"),
            ("a+tag%x_y-z.w@sub-1.example.co.uk", "a+tag%x_y-z.w@sub-1.example.co.uk"),
            ("ada@example.io", "ada@example.io"),
            ("ADA@EXAMPLE.MUSEUM", "ADA@EXAMPLE.MUSEUM"),
            ("1234@123.com", "1234@123.com"),
            (address254, address254),
        ])
        func acceptsAndTrims(raw: String, address: String) throws {
            let email = try EmailRules.normalize(raw).get()
            #expect(email.address == address)
        }

        @Test func keyIsLowerCasedWhileAddressKeepsTheUsersSpelling() throws {
            let email = try EmailRules.normalize(" Ada.Lovelace@Example.COM ").get()
            #expect(email.address == "Ada.Lovelace@Example.COM")
            #expect(email.key == "ada.lovelace@example.com")
            #expect(try EmailRules.normalize("ada.lovelace@example.com").get().key == email.key)
        }

        @Test(arguments: [
            ("", "empty"),
            ("   \n", "only whitespace"),
            ("ada@example", "missing TLD"),
            ("ada@example.c", "one-letter TLD"),
            ("ada@example.c0m", "digit in TLD"),
            ("ada@example.com.", "trailing dot"),
            ("ada@@example.com", "two @ in a row"),
            ("ada@lovelace@example.com", "two @"),
            ("ada.example.com", "no @"),
            ("@example.com", "empty local part"),
            ("ada@.com", "empty host before the TLD"),
            ("ada lovelace@example.com", "space inside"),
            ("adá@example.com", "non-ASCII local part"),
            ("ada@exämple.com", "non-ASCII domain"),
            ("ada@example.cöm", "non-ASCII TLD"),
            ("ada＠example.com", "full-width @"),
            ("ada@ex_ample.com", "underscore in the domain"),
            ("a@..com", "empty domain labels"),
            ("a@-x.com", "a label starting with a hyphen"),
            ("a@x-.com", "a label ending with a hyphen"),
            ("a@x..com", "two dots in the domain"),
            (".a@x.com", "a local part starting with a dot"),
            ("a.@x.com", "a local part ending with a dot"),
            ("a..b@x.com", "two dots in the local part"),
            ("a@x.c0m", "a digit in the last label"),
            ("\"ada\"@example.com", "quoted local part"),
            ("ada@example.com\u{0}", "trailing NUL"),
            (address255, "255 characters"),
        ])
        func refuses(raw: String, why: String) {
            let result = EmailRules.normalize(raw)
            #expect(throws: ValidationFailure.self, "\(why)") { try result.get() }
            let failure = result.emailFailure
            #expect(failure?.field == "email")
            #expect([.emailMissing, .emailMalformed, .emailTooLong].contains(failure?.rule), "\(why)")
        }

        @Test func tooLongSaysTheLimit() {
            #expect(EmailRules.normalize(Self.address255).emailFailure?.rule == .emailTooLong)
            #expect(EmailRules.normalize("  " + Self.address254 + "  ").emailFailure == nil, "the limit applies after trimming")
        }

        /// The hand-written matcher must accept exactly what the regular expression in the
        /// OpenAPI document does, on awkward and on generated inputs.
        @Test func matchesTheDocumentedRegularExpression() throws {
            let regex = try NSRegularExpression(pattern: EmailPattern.regularExpression)
            var inputs = ["a@b.co", "a@..com", ".a@b.co", "a..b@c.de", "-@-.xx", "a@b.c.d.ef", "a@b.", "a@.b",
                          "a@b.co.", "a@b-.co", "%@1.ab", "a@b.cO", "a@b.c", "a@bc", "@", "a@", "@b.co", "é@b.co"]
            var generator = SeededGenerator(seed: 0x5EED)
            let anything = Array("aZ9._%+-@é ")
            // Mostly characters the part allows, sometimes anything, so both answers come up.
            func piece(_ allowed: String, upTo length: Int) -> String {
                String((0..<Int.random(in: 0...length, using: &generator)).map { _ in
                    (Int.random(in: 0..<10, using: &generator) == 0 ? anything : Array(allowed)).randomElement(using: &generator)!
                })
            }
            for _ in 0..<4000 {
                inputs.append(piece(String(anything), upTo: 12))
                inputs.append(piece("aZ9._%+-", upTo: 4) + "@" + piece("aZ9.-", upTo: 4) + "." + piece("aZ", upTo: 3))
            }
            var accepted = 0, refused = 0
            for input in inputs where input.trimmingCharacters(in: .whitespacesAndNewlines) == input {
                let range = NSRange(input.startIndex..., in: input)
                let regexAccepts = regex.firstMatch(in: input, range: range) != nil
                let rulesAccept = EmailRules.normalize(input).emailFailure == nil
                #expect(rulesAccept == regexAccepts, "\(input)")
                if regexAccepts { accepted += 1 } else { refused += 1 }
            }
            #expect(accepted >= 100 && refused >= 100, "the inputs exercise both answers (\(accepted) accepted, \(refused) refused)")
        }
    }
}
