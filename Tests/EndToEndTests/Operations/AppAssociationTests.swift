import Foundation
import Testing
import TestSupport

/// The files iOS and Android fetch from the server's domain before an app may offer the
/// passwords and passkeys saved for it.
@Suite struct AppAssociationTests {
    static let fingerprint = (0..<32).map { String(format: "%02X", $0 * 7 % 256) }.joined(separator: ":")

    @Test func withNoAppsConfiguredBothFilesAreNotFound() throws {
        let server = try AccountServer()
        defer { server.stop() }
        expectProblem(try server.call("GET", "/.well-known/apple-app-site-association"), 404, "NOT_FOUND")
        expectProblem(try server.call("GET", "/.well-known/assetlinks.json"), 404, "NOT_FOUND")
    }

    @Test func theConfiguredAppsAreNamedAsTheirPlatformsReadThem() throws {
        let server = try AccountServer([
            "--apple-app-ids", "ABCDE12345.com.example.app,ABCDE12345.com.example.app-clip",
            "--android-apps", "com.example.app:\(Self.fingerprint.lowercased())",
        ])
        defer { server.stop() }

        let apple = try server.call("GET", "/.well-known/apple-app-site-association")
        #expect(apple.status == 200)
        #expect(apple.header("Content-Type") == "application/json")
        let credentials = try #require(apple["webcredentials"] as? [String: Any])
        #expect(credentials["apps"] as? [String] == ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app-clip"])
        #expect(apple["applinks"] == nil, "universal links are the app's own site's business")

        let android = try server.call("GET", "/.well-known/assetlinks.json")
        #expect(android.status == 200)
        #expect(android.header("Content-Type") == "application/json")
        let statements = try #require(try JSONSerialization.jsonObject(with: Data(android.text.utf8)) as? [[String: Any]])
        #expect(statements.count == 1)
        #expect(statements.first?["relation"] as? [String] == ["delegate_permission/common.get_login_creds"])
        let target = try #require(statements.first?["target"] as? [String: Any])
        #expect(target["namespace"] as? String == "android_app")
        #expect(target["package_name"] as? String == "com.example.app")
        #expect(target["sha256_cert_fingerprints"] as? [String] == [Self.fingerprint], "upper case, as Android compares it")
    }

    /// A value the platforms could never match is refused at start, not served.
    @Test(arguments: [
        ("--apple-app-ids", "com.example.app", "apple-app-ids"),
        ("--apple-app-ids", "abcde12345.com.example.app", "apple-app-ids"),
        ("--android-apps", "com.example.app", "android-apps"),
        ("--android-apps", "com.example.app:14:6D", "android-apps"),
    ])
    func anAppTheFilesCouldNeverNameIsRefusedAtStart(_ flag: String, _ value: String, _ name: String) throws {
        let process = try LatchkeyProcess(arguments: ["serve", "--port", "0", flag, value])
        let status = process.waitForExit()
        #expect(status == 2)
        #expect(process.output.hasPrefix("latchkey: invalid value '\(value)' for --\(name): expected "))
    }
}
