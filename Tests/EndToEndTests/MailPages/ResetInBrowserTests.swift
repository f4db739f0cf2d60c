import Foundation
import Testing
import TestSupport

extension Accounts {
    /// Story 1.4 in a real browser (Debian's Chromium, driven by selenium): the emailed
    /// link opens the form, two different passwords keep it with a message, a matching
    /// pair sets the password. Screenshots at 320 px and 1280 px land in
    /// `test-results/browser/` for a person to look at (`browser-postgres/` from the
    /// PostgreSQL pass, which runs beside the SQLite one and would overwrite them).
    @Suite struct ResetInBrowser {
        static let screenshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(DatabaseUnderTest.isPostgreSQL ? "test-results/browser-postgres" : "test-results/browser").path

        @Test func aPersonFollowsTheEmailedLinkAndSetsANewPassword() throws {
            let (sink, options) = try SMTPDelivery.sink(.plain)
            let server = try AccountServer(options)
            defer { server.stop() }
            try server.signUp("ada@example.com", "ada")
            #expect(try PasswordReset.requestReset(server, "ada@example.com").status == 202)
            let mail = try SMTPDelivery.message(to: "ada@example.com", subject: "Reset your Latchkey password", in: try sink.messages(atLeast: 1))
            let link = try #require(mail.link(startingWith: server.publicURL + "/reset-password?token="))

            let output = try runPythonTool("reset_in_browser.py", arguments: [link, "a-whole-new-passphrase", Self.screenshots])
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
            #expect(seen["formTitle"] as? String == "Choose a new password")
            #expect(seen["labels"] as? [String] == ["password", "confirmPassword"], "every field has its label")
            #expect(seen["focusOrder"] as? [String] == ["password", "confirmPassword"], "the keyboard reaches the fields in order")
            #expect((seen["mismatchText"] as? String)?.contains("The two passwords differ.") == true)
            #expect(seen["mismatchURL"] as? String == server.publicURL + "/reset-password", "the token left the address bar")
            #expect((seen["doneText"] as? String)?.contains("Your password has been changed") == true)
            for page in ["form", "mismatch", "done"] {
                for width in ["phone", "desktop"] {
                    let layout = try #require(seen["\(page)-\(width)"] as? [String: Any])
                    #expect(layout["fitsWidth"] as? Bool == true, "\(page) at \(width) width has no sideways scrolling")
                    #expect((layout["fontSize"] as? Double ?? 0) >= 16, "\(page) text follows the browser's size")
                    #expect(FileManager.default.fileExists(atPath: "\(Self.screenshots)/reset-\(page)-\(width).png"))
                }
            }
            try server.logIn("ada@example.com", password: "a-whole-new-passphrase")
        }
    }
}
