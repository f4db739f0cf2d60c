import Foundation
import Testing
import TestSupport

/// A passkey in a real browser: Debian's Chromium with WebDriver's virtual authenticator
/// (CTAP2, internal transport, resident keys, user verification) on a small web app the
/// test serves from another origin. The app signs up, registers a passkey from the
/// server's creation options, signs out, then signs in with the passkey alone: nobody
/// types an email. Screenshots of both steps land in `test-results/browser/`
/// (`browser-postgres/` from the PostgreSQL pass) for a person to look at.
@Suite struct PasskeyInBrowser {
    static let screenshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(DatabaseUnderTest.isPostgreSQL ? "test-results/browser-postgres" : "test-results/browser").path

    @Test func chromiumRegistersAPasskeySignsOutAndSignsInWithItAlone() throws {
        let page = try Accounts.CORSInBrowser.freePort()
        let origin = "http://localhost:\(page)"
        let server = try AccountServer(["--cors-origins", origin, "--webauthn-rp-id", "localhost", "--webauthn-origins", origin])
        defer { server.stop() }
        let output = try runPythonTool("passkey_in_browser.py", arguments: ["\(server.port)", "\(page)", Self.screenshots])
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])

        let registered = try #require(seen["register"] as? [String: Any], "\(seen)")
        #expect(registered["signup"] as? Int == 201, "\(registered)")
        #expect(registered["options"] as? Int == 200, "\(registered)")
        #expect(registered["register"] as? Int == 201, "\(registered)")
        #expect((registered["passkey"] as? [String: Any])?["name"] as? String == "Chromium", "\(registered)")
        #expect(registered["logout"] as? Int == 204, "\(registered)")
        #expect(seen["credentials"] as? Int == 1, "the virtual authenticator holds the one resident key: \(seen)")

        let signedIn = try #require(seen["signIn"] as? [String: Any], "\(seen)")
        #expect(signedIn["login"] as? Int == 200, "\(signedIn)")
        #expect(signedIn["me"] as? Int == 200, "\(signedIn)")
        #expect(signedIn["email"] as? String == "browser@example.com", "\(signedIn)")
        #expect(signedIn["amr"] as? [String] == ["webauthn", "mfa"], "\(signedIn)")
        for step in ["register", "signIn"] {
            #expect(FileManager.default.fileExists(atPath: "\(Self.screenshots)/passkey-\(step).png"))
        }
    }
}
