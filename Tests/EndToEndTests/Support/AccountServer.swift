import Foundation
import Testing
import TestSupport

/// The end-to-end tests of accounts and sessions (docs/api.md, "Auth" and "Users and display
/// names"), each area a nested suite, so `swift test --filter Accounts` runs them all.
@Suite enum Accounts {}

/// The real `latchkey serve` set up for account tests: cheap password hashes, a signing
/// key the test knows (so it can forge tokens), throttling off unless asked for.
final class AccountServer {
    static let keyID = "k1"
    static let password = "lighthouse-Quokka-42"
    /// Fixed, so tokens stay valid across a restart (the default, the public URL, carries
    /// the port, which `--port 0` changes).
    static let fixedIssuer = "https://auth.latchkey.test"
    /// As `signingKeys`: no `--signing-keys`, so the server keeps its keys in the data
    /// directory's key file (what `latchkey keys` manages).
    static let keyFileInDataDirectory = ""

    let process: LatchkeyProcess
    let port: Int
    let signingKey: [UInt8]
    /// The `--signing-keys` value: `k1:<base64>` unless the test chose its own ring.
    let signingKeys: String
    let configuredIssuer: String?
    /// The `iss` of access tokens: the configured issuer, else the public URL.
    var issuer: String { configuredIssuer ?? publicURL }
    var dataDirectory: String { process.dataDirectory }
    var databasePath: String { dataDirectory + "/latchkey.sqlite" }
    var publicURL: String { "http://127.0.0.1:\(port)" }

    init(
        iterations: Int = 1000, rateLimits: Bool = false, _ extra: [String] = [],
        dataDirectory: String? = nil, signingKey: [UInt8]? = nil, signingKeys: String? = nil, issuer: String? = AccountServer.fixedIssuer
    ) throws {
        configuredIssuer = issuer
        let key = signingKey ?? (0..<32).map { _ in UInt8.random(in: 0...255) }
        self.signingKey = key
        self.signingKeys = signingKeys ?? "\(Self.keyID):\(Data(key).base64EncodedString())"
        let arguments = [
            "serve", "--port", "0", "--password-iterations", "\(iterations)", "--rate-limits-enabled", rateLimits ? "true" : "false",
        ] + (self.signingKeys.isEmpty ? [] : ["--signing-keys", self.signingKeys]) + (issuer.map { ["--issuer", $0] } ?? []) + extra
        process = try LatchkeyProcess(arguments: arguments, dataDirectory: dataDirectory)
        port = try process.waitUntilListening()
    }

    /// SIGTERM and wait: the server drains, checkpoints and exits 0.
    func stop() {
        guard process.process.isRunning else { return }
        process.terminate()
        _ = process.waitForExit()
    }

    /// Stops this server and starts another on the same data directory and keys.
    func restarted(iterations: Int = 1000, rateLimits: Bool = false, _ extra: [String] = []) throws -> AccountServer {
        stop()
        #expect(process.process.terminationStatus == 0, "latchkey exits 0 on SIGTERM: \(process.output)")
        return try AccountServer(
            iterations: iterations, rateLimits: rateLimits, extra, dataDirectory: dataDirectory,
            signingKey: signingKey, signingKeys: signingKeys, issuer: configuredIssuer)
    }

    // MARK: Requests

    func call(_ method: String, _ path: String, json: [String: Any]? = nil, token: String? = nil, headers: [String: String] = [:]) throws -> JSONResponse {
        try TestSupport.call(port: port, method, path, body: json.map(RequestBody.json), token: token, headers: headers)
    }

    func call(_ method: String, _ path: String, raw: String, contentType: String?, token: String? = nil, headers: [String: String] = [:]) throws -> JSONResponse {
        try TestSupport.call(port: port, method, path, body: .raw(raw, contentType: contentType), token: token, headers: headers)
    }

    func me(_ token: String?) throws -> JSONResponse { try call("GET", "/v1/users/me", token: token) }

    func availability(_ name: String) throws -> JSONResponse { try call("GET", "/v1/display-names/\(name)") }

    @discardableResult
    func signUp(_ email: String, _ displayName: String, password: String = AccountServer.password, userAgent: String? = nil) throws -> Account {
        let response = try call(
            "POST", "/v1/auth/signup", json: ["email": email, "password": password, "displayName": displayName],
            headers: userAgent.map { ["User-Agent": $0] } ?? [:])
        guard response.status == 201 else { throw TestError("signup of \(email) as \(displayName): \(response)") }
        return try Account(response, password: password)
    }

    @discardableResult
    func logIn(_ email: String, password: String = AccountServer.password, userAgent: String? = nil) throws -> Account {
        let response = try call(
            "POST", "/v1/auth/login", json: ["email": email, "password": password],
            headers: userAgent.map { ["User-Agent": $0] } ?? [:])
        guard response.status == 200 else { throw TestError("login of \(email): \(response)") }
        return try Account(response, password: password)
    }

    func refresh(_ refreshToken: String) throws -> JSONResponse {
        try call("POST", "/v1/auth/refresh", json: ["refreshToken": refreshToken])
    }
}

/// One signed-in session of a user, from a TokenPair.
struct Account {
    let id: String
    let email: String
    let displayName: String
    let password: String
    let accessToken: String
    let refreshToken: String

    init(_ response: JSONResponse, password: String) throws {
        guard let user = response["user"] as? [String: Any], let id = user["id"] as? String,
              let email = user["email"] as? String, let displayName = user["displayName"] as? String,
              let accessToken = response["accessToken"] as? String, let refreshToken = response["refreshToken"] as? String
        else { throw TestError("not a TokenPair: \(response)") }
        (self.id, self.email, self.displayName, self.password) = (id, email, displayName, password)
        (self.accessToken, self.refreshToken) = (accessToken, refreshToken)
    }

    /// The `sid` claim of the access token.
    var sessionID: String? { JWTParts(accessToken)?.payload["sid"] as? String }
}
