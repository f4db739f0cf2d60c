import Foundation
import LatchkeyCore
import Testing

extension ValidationRulesTests {
    @Suite struct CommonPasswordsTests {
        /// The repository root, found through symlinks too (a scratch package may link this folder).
        static let listFile = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("resources/common-passwords.txt")

        @Test func blocklistHasAtLeastTenThousandEntries() {
            #expect(CommonPasswords.count >= 10_000)
        }

        @Test func embeddedListEqualsTheResourceFile() throws {
            let file = try String(contentsOf: Self.listFile, encoding: .utf8)
            #expect(file.hasSuffix("\n"))
            #expect(CommonPasswords.embeddedList == String(file.dropLast()), "run scripts/embed-password-blocklist after changing resources/common-passwords.txt")
            let entries = file.split(separator: "\n")
            #expect(entries.count == CommonPasswords.count, "no duplicates or blank lines")
        }

        @Test(arguments: ["123456", "password", "PassWord", "qwertyuiop", "pic's"])
        func containsIgnoresCase(password: String) {
            #expect(CommonPasswords.contains(password))
        }

        @Test(arguments: ["zq8!vm#k", "", "password ", " password", "correct-horse-battery-staple-9183"])
        func doesNotContainOthers(password: String) {
            #expect(!CommonPasswords.contains(password))
        }
    }
}
