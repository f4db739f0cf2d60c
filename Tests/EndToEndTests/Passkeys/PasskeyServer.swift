import Foundation
import Testing
import TestSupport

/// The end-to-end tests of passkeys (docs/api.md, "Passkeys"): `swift test --filter Passkeys`.
@Suite enum Passkeys {}

/// A real server configured as the relying party `auth.latchkey.test`, whose web app and
/// iOS app are the accepted origins, and the requests of both ceremonies.
struct PasskeyServer {
    static let rpID = "auth.latchkey.test"
    static let origin = "https://auth.latchkey.test"
    static let iOSOrigin = "ios:bundle-id:com.example.latchkey"

    let server: AccountServer

    init(rateLimits: Bool = false, _ extra: [String] = []) throws {
        server = try AccountServer(rateLimits: rateLimits, [
            "--webauthn-rp-id", Self.rpID, "--webauthn-rp-name", "Latchkey Tests", "--webauthn-origins", "\(Self.origin),\(Self.iOSOrigin)",
        ] + extra)
    }

    func stop() { server.stop() }

    /// A registration challenge for the account of `token`, and the options it came in.
    func registrationOptions(_ token: String) throws -> (challenge: String, options: JSONResponse) {
        let options = try server.call("POST", "/v1/auth/passkeys/register/options", token: token)
        guard options.status == 200, let challenge = options["challenge"] as? String else { throw TestError("register options: \(options)") }
        return (challenge, options)
    }

    func register(_ credential: [String: Any], name: String? = nil, token: String) throws -> JSONResponse {
        var body: [String: Any] = ["credential": credential]
        if let name { body["name"] = name }
        return try server.call("POST", "/v1/auth/passkeys/register", json: body, token: token)
    }

    /// Options, then the authenticator's `none` attestation of them: the new passkey.
    @discardableResult
    func registerPasskey(_ authenticator: TestAuthenticator, name: String = "iPhone", token: String) throws -> [String: Any] {
        let (challenge, _) = try registrationOptions(token)
        let registered = try register(
            try authenticator.registration(challenge: challenge, rpID: Self.rpID, origin: Self.origin), name: name, token: token)
        guard registered.status == 201 else { throw TestError("register: \(registered)") }
        return registered.json ?? [:]
    }

    func signInChallenge() throws -> String {
        let options = try server.call("POST", "/v1/auth/passkeys/login/options")
        guard options.status == 200, let challenge = options["challenge"] as? String else { throw TestError("login options: \(options)") }
        return challenge
    }

    func signIn(_ credential: [String: Any], deviceToken: String? = nil) throws -> JSONResponse {
        var body: [String: Any] = ["credential": credential]
        if let deviceToken { body["deviceToken"] = deviceToken }
        return try server.call("POST", "/v1/auth/passkeys/login", json: body)
    }

    /// Options, then a good assertion of `authenticator` for them.
    func signIn(_ authenticator: TestAuthenticator, counter: UInt32 = 0) throws -> JSONResponse {
        try signIn(try authenticator.assertion(challenge: try signInChallenge(), rpID: Self.rpID, origin: Self.origin, counter: counter))
    }

    func passkeys(_ token: String) throws -> [[String: Any]] {
        let list = try server.call("GET", "/v1/auth/passkeys", token: token)
        guard list.status == 200, let passkeys = list["passkeys"] as? [[String: Any]] else { throw TestError("list: \(list)") }
        return passkeys
    }

    /// Audit entries of `event` for the user: their details, oldest first.
    func audit(_ event: String, of userID: String) throws -> [String?] {
        var details: [String?] = []
        let rows = try StoredRows(server)
        let count = try rows.row("SELECT count(*) FROM audit_log WHERE event = ? AND user_id = ?", event, userID) { $0.int(at: 0) } ?? 0
        for index in 0..<min(count, 100) {
            details.append(try rows.row(
                "SELECT detail FROM audit_log WHERE event = ? AND user_id = ? ORDER BY id LIMIT 1 OFFSET ?", event, userID, index
            ) { $0.text(at: 0) } ?? nil)
        }
        return details
    }

    /// The mails sent so far, quoted-printable soft line breaks undone, so a sentence reads whole.
    func mails(atLeast count: Int) throws -> [String] {
        try Accounts.PasswordReset.mails(server, atLeast: count).map { $0.replacingOccurrences(of: "=\r\n", with: "").replacingOccurrences(of: "=\n", with: "") }
    }
}
