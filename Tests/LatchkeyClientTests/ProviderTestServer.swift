import Foundation
import Testing
import TestSupport

/// A fake Apple and a fake Google (`Tests/Tools/fake_idp.py`, over HTTPS with a certificate
/// this test made) and the real server configured for both through the settings a user sets,
/// with the test's CA as `outboundCAFile`: what the client's provider sign-in talks to.
final class ProviderTestServer {
    static let appleClientID = "com.example.app"
    static let googleClientID = "1234-app.apps.googleusercontent.com"

    let certificate: TestCertificate
    let providers: PythonServer
    let appleIssuer: String
    let googleIssuer: String
    let server: ClientTestServer

    init(_ extra: [String] = []) throws {
        certificate = try TestCertificate(names: "IP:127.0.0.1")
        providers = try PythonServer(script: "fake_idp.py", arguments: ["--cert", certificate.certificatePath, "--key", certificate.keyPath])
        let info = try TestSupport.call(port: providers.port, "GET", "/info")
        guard let apple = info["apple"] as? String, let google = info["google"] as? String else { throw TestError("fake_idp info: \(info)") }
        (appleIssuer, googleIssuer) = (apple, google)
        server = try ClientTestServer([
            "--apple-client-ids", Self.appleClientID, "--apple-base-url", appleIssuer,
            "--google-client-ids", Self.googleClientID, "--google-issuer", googleIssuer,
            "--outbound-ca-file", certificate.certificatePath,
        ] + extra)
    }

    func stop() { server.stop() }

    /// A token of `provider` ("apple" or "google") for `subject`, valid now, signed with the
    /// provider's current key; `changes` replace claims.
    func token(_ provider: String, subject: String, email: String? = nil, verified: Bool = true, _ changes: [String: Any] = [:]) throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        var claims: [String: Any] = [
            "iss": provider == "apple" ? appleIssuer : googleIssuer, "aud": provider == "apple" ? Self.appleClientID : Self.googleClientID,
            "sub": subject, "iat": now, "exp": now + 600,
        ]
        if let email { (claims["email"], claims["email_verified"]) = (email, verified) }
        claims.merge(changes) { $1 }
        let minted = try TestSupport.call(port: providers.port, "POST", "/mint", body: .json(["provider": provider, "claims": claims]))
        guard minted.status == 200, let token = minted["token"] as? String else { throw TestError("fake_idp mint: \(minted)") }
        return token
    }

    /// Apple's `nonce` claim for the app's raw nonce: its SHA-256 in hex, as the app puts
    /// it in the `ASAuthorizationAppleIDRequest`.
    static func appleNonce(_ raw: String) throws -> String {
        try runPython("import hashlib,sys; print(hashlib.sha256(sys.argv[1].encode()).hexdigest())", arguments: [raw])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
