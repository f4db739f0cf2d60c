import Foundation
import Testing
import TestSupport

/// The end-to-end tests of the second factor (docs/api.md, "Second factor (TOTP)"), so
/// `swift test --filter Factors` runs them all.
@Suite enum Factors {}

/// The steps a user and an app take with the second factor, over the real API.
enum SecondFactorFlow {
    /// Enrols `account` and confirms the factor with the test's own authenticator: the
    /// secret the app would keep, and the recovery codes shown once.
    static func turnOn(_ server: AccountServer, _ account: Account) throws -> (secret: String, recoveryCodes: [String]) {
        let secret = try enrol(server, account)
        let confirmed = try server.call("POST", "/v1/auth/mfa/totp/verify", json: ["code": try TestTOTP.code(secret)], token: account.accessToken)
        guard confirmed.status == 200, let codes = confirmed["recoveryCodes"] as? [String] else { throw TestError("verify: \(confirmed)") }
        return (secret, codes)
    }

    static func enrol(_ server: AccountServer, _ account: Account) throws -> String {
        let enrolled = try server.call("POST", "/v1/auth/mfa/totp", json: ["password": account.password], token: account.accessToken)
        guard enrolled.status == 200, let secret = enrolled["secret"] as? String else { throw TestError("enrol: \(enrolled)") }
        return secret
    }

    static func login(_ server: AccountServer, _ email: String, password: String = AccountServer.password, deviceToken: String? = nil,
                      from address: String? = nil) throws -> JSONResponse {
        var body: [String: Any] = ["email": email, "password": password]
        if let deviceToken { body["deviceToken"] = deviceToken }
        return try server.call("POST", "/v1/auth/login", json: body, headers: address.map { ["X-Forwarded-For": $0] } ?? [:])
    }

    /// A login that must stop at the challenge: its mfaToken.
    static func challenge(_ server: AccountServer, _ email: String, deviceToken: String? = nil, from address: String? = nil) throws -> String {
        let answer = try login(server, email, deviceToken: deviceToken, from: address)
        guard answer.status == 200, answer["mfaRequired"] as? Bool == true, let token = answer["mfaToken"] as? String else {
            throw TestError("the login did not stop at the challenge: \(answer)")
        }
        return token
    }

    static func answer(_ server: AccountServer, _ token: String, code: String? = nil, recoveryCode: String? = nil,
                       from address: String? = nil) throws -> JSONResponse {
        var body: [String: Any] = ["mfaToken": token]
        if let code { body["code"] = code }
        if let recoveryCode { body["recoveryCode"] = recoveryCode }
        return try server.call("POST", "/v1/auth/mfa/challenge", json: body, headers: address.map { ["X-Forwarded-For": $0] } ?? [:])
    }

    /// The code the authenticator shows next. Confirming the factor spent the current
    /// step's code, and a code works once; the server accepts one step of drift each way,
    /// so a test signs in with the next step's code instead of waiting up to 30 s.
    static func nextCode(_ secret: String) throws -> String {
        try TestTOTP.code(secret, at: Date().addingTimeInterval(30))
    }

    /// A code that is not the one the authenticator shows now, nor in the steps around it.
    static func wrongCode(_ secret: String) throws -> String {
        let near = try Set([-30.0, 0, 30, 60].map { try TestTOTP.code(secret, at: Date().addingTimeInterval($0)) })
        return (0..<10).map { String(repeating: String($0), count: 6) }.first { !near.contains($0) }!
    }

    static func sessionCount(_ server: AccountServer, _ account: Account) throws -> Int {
        let listed = try server.call("GET", "/v1/auth/sessions", token: account.accessToken)
        return (listed["sessions"] as? [Any])?.count ?? -1
    }

    static func amr(_ response: JSONResponse) -> [String]? {
        (response["accessToken"] as? String).flatMap(JWTParts.init)?.payload["amr"] as? [String]
    }

    static func status(_ server: AccountServer, _ account: Account) throws -> JSONResponse {
        try server.call("GET", "/v1/auth/mfa", token: account.accessToken)
    }

    static func auditEvents(_ server: AccountServer, _ userID: String) throws -> [String] {
        try Accounts.AuditLogEntries.audit(server, ["--user", userID]).compactMap { $0["event"] as? String }
    }
}
