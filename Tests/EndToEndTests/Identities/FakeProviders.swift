import Foundation
import Testing
import TestSupport

/// The end-to-end tests of signing in with Apple, Google and OpenID Connect providers
/// (docs/api.md, "Sign in with Apple, Google and OpenID Connect providers").
@Suite enum Identities {}

/// A fake Apple and a fake Google (`Tests/Tools/fake_idp.py`) over HTTPS with a certificate
/// this test made, and the test's handle on them: minting tokens, rotating keys, counting
/// the key-set fetches.
final class FakeProviders {
    let certificate: TestCertificate
    let server: PythonServer
    let appleIssuer: String
    let googleIssuer: String
    /// With Apple's server side: the team's key (`appleKeyFile`) Apple's token and
    /// revocation endpoints (mounted under the Apple issuer) check client secrets against,
    /// and what they recorded.
    let appleKeyPath: String?
    let appleRecords: AppleEndpointRecords?

    init(appleServer: Bool = false) throws {
        certificate = try TestCertificate(names: "IP:127.0.0.1")
        var arguments = ["--cert", certificate.certificatePath, "--key", certificate.keyPath]
        if appleServer {
            let directory = LatchkeyProcess.makeTemporaryDirectory()
            let keyPath = directory + "/AuthKey_\(FakeAppleEndpoints.keyID).p8"
            try FakeAppleEndpoints.generateKey(at: keyPath)
            let records = AppleEndpointRecords(path: directory + "/record.jsonl")
            arguments += ["--apple-key", keyPath, "--team-id", FakeAppleEndpoints.teamID, "--key-id", FakeAppleEndpoints.keyID,
                          "--client-ids", FakeAppleEndpoints.clientIDs.joined(separator: ","), "--record", records.path]
            (appleKeyPath, appleRecords) = (keyPath, records)
        } else {
            (appleKeyPath, appleRecords) = (nil, nil)
        }
        server = try PythonServer(script: "fake_idp.py", arguments: arguments)
        let info = try Self.control(port: server.port, "GET", "/info")
        guard let apple = info["apple"] as? String, let google = info["google"] as? String else { throw TestError("fake_idp info: \(info)") }
        (appleIssuer, googleIssuer) = (apple, google)
    }

    @discardableResult
    private func control(_ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> JSONResponse {
        try Self.control(port: server.port, method, path, body)
    }

    private static func control(port: Int, _ method: String, _ path: String, _ body: [String: Any]? = nil) throws -> JSONResponse {
        let response = try TestSupport.call(port: port, method, path, body: body.map(RequestBody.json))
        guard response.status == 200 else { throw TestError("fake_idp \(path): \(response)") }
        return response
    }

    /// A token of `provider` ("apple" or "google") with exactly these claims.
    func mint(_ provider: String, _ claims: [String: Any], alg: String = "ES256", kid: String? = nil) throws -> String {
        var body: [String: Any] = ["provider": provider, "claims": claims, "alg": alg]
        if let kid { body["kid"] = kid }
        guard let token = try control("POST", "/mint", body)["token"] as? String else { throw TestError("no token minted") }
        return token
    }

    /// The usual claims of `provider`'s token for `subject`, valid now; `changes` replace
    /// or (with NSNull) remove some.
    func claims(_ provider: String, subject: String, email: String? = nil, verified: Any = true, _ changes: [String: Any] = [:]) -> [String: Any] {
        let now = Int(Date().timeIntervalSince1970)
        var claims: [String: Any] = [
            "iss": provider == "apple" ? appleIssuer : googleIssuer, "aud": provider == "apple" ? IdentityServer.appleClientID : IdentityServer.googleClientID,
            "sub": subject, "iat": now, "exp": now + 600,
        ]
        if let email { (claims["email"], claims["email_verified"]) = (email, verified) }
        for (key, value) in changes { claims[key] = value is NSNull ? nil : value }
        return claims
    }

    func rotate(_ provider: String) throws { try control("POST", "/rotate", ["provider": provider]) }

    func set(_ provider: String, _ changes: [String: Any]) throws {
        try control("POST", "/set", changes.merging(["provider": provider]) { $1 })
    }

    /// How many times the server under test fetched `provider`'s key set.
    func jwksFetches(_ provider: String) throws -> Int {
        guard let count = try control("GET", "/count?provider=\(provider)")["jwks"] as? Int else { throw TestError("no count") }
        return count
    }
}

/// The real `latchkey serve` configured for both fake providers through the settings a user
/// sets (client ids, Apple's base URL, Google's issuer), with the test's CA as outboundCAFile.
final class IdentityServer {
    static let appleClientID = "com.example.app"
    static let appleWebClientID = "com.example.web"
    static let googleClientID = "1234-app.apps.googleusercontent.com"

    let providers: FakeProviders
    let server: AccountServer

    /// `appleServer`: with Apple's server settings too (team id, key id, key file), as a
    /// user sets them for the code exchange, revocation and notifications.
    init(rateLimits: Bool = false, appleServer: Bool = false, _ extra: [String] = []) throws {
        providers = try FakeProviders(appleServer: appleServer)
        let appleServerArguments = providers.appleKeyPath.map { keyPath in
            ["--apple-team-id", FakeAppleEndpoints.teamID, "--apple-key-id", FakeAppleEndpoints.keyID, "--apple-key-file", keyPath]
        } ?? []
        server = try AccountServer(rateLimits: rateLimits, [
            "--apple-client-ids", "\(Self.appleClientID),\(Self.appleWebClientID)", "--apple-base-url", providers.appleIssuer,
            "--google-client-ids", Self.googleClientID, "--google-issuer", providers.googleIssuer,
            "--outbound-ca-file", providers.certificate.certificatePath,
        ] + appleServerArguments + extra)
    }

    deinit { server.stop() }

    func signIn(_ provider: String, _ token: String, nonce: String? = nil, extra: [String: Any] = [:]) throws -> JSONResponse {
        var body: [String: Any] = ["idToken": token]
        if let nonce { body["nonce"] = nonce }
        return try server.call("POST", "/v1/auth/idp/\(provider)", json: body.merging(extra) { $1 })
    }

    /// A sign-in with a fresh token for `subject`; the TokenPair's user and access token.
    func signedIn(_ provider: String, subject: String, email: String? = nil, verified: Any = true, expecting status: Int) throws -> (user: [String: Any], token: String) {
        let response = try signIn(provider, try providers.mint(provider, providers.claims(provider, subject: subject, email: email, verified: verified)))
        guard response.status == status, let user = response["user"] as? [String: Any], let token = response["accessToken"] as? String else {
            throw TestError("sign-in of \(subject) with \(provider), expecting \(status): \(response)")
        }
        return (user, token)
    }

    func link(_ provider: String, _ token: String, as accessToken: String) throws -> JSONResponse {
        try server.call("POST", "/v1/auth/identities/\(provider)", json: ["idToken": token], token: accessToken)
    }

    func identities(_ accessToken: String) throws -> JSONResponse {
        try server.call("GET", "/v1/auth/identities", token: accessToken)
    }

    /// Audit entries of `event` for the user.
    func auditCount(_ event: String, of userID: String) throws -> Int {
        try StoredRows(server).row("SELECT count(*) FROM audit_log WHERE event = ? AND user_id = ?", event, userID) { $0.int(at: 0) } ?? 0
    }
}
