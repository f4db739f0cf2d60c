import Foundation
import Testing
import TestSupport

/// Checks of the conventions every response of the contract follows (docs/api.md,
/// "Conventions", "Objects"), so each test states only what is particular to it.

/// RFC 3339 UTC with whole seconds: `2026-11-22T17:30:00Z`.
func isContractTime(_ value: Any?) -> Bool {
    guard let text = value as? String else { return false }
    return text.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"#, options: .regularExpression) != nil
}

/// A problem+json error with its status, stable code and, where given, field and reason.
func expectProblem(
    _ response: JSONResponse, _ status: Int, _ code: String?, field: String? = nil, reason: String? = nil,
    _ comment: String = "", sourceLocation: SourceLocation = #_sourceLocation
) {
    let what = comment.isEmpty ? "" : comment + ": "
    #expect(response.status == status, "\(what)\(response)", sourceLocation: sourceLocation)
    guard response.status == status else { return }
    if let code { #expect(response.code == code, "\(what)\(response)", sourceLocation: sourceLocation) }
    #expect(response.header("Content-Type")?.hasPrefix("application/problem+json") == true,
            "\(what)problem details are application/problem+json, got \(response.header("Content-Type") ?? "none")", sourceLocation: sourceLocation)
    #expect(response["status"] as? Int == status, "\(what)the body's status matches: \(response)", sourceLocation: sourceLocation)
    #expect((response["title"] as? String)?.isEmpty == false, "\(what)a title: \(response)", sourceLocation: sourceLocation)
    #expect((response["detail"] as? String)?.isEmpty == false, "\(what)a detail: \(response)", sourceLocation: sourceLocation)
    #expect(response.header("Cache-Control") == "no-store", "\(what)a problem is never cached, got \(response.header("Cache-Control") ?? "none")",
            sourceLocation: sourceLocation)
    if let field { #expect(response["field"] as? String == field, "\(what)field \(field): \(response)", sourceLocation: sourceLocation) }
    if let reason { #expect(response["reason"] as? String == reason, "\(what)reason \(reason): \(response)", sourceLocation: sourceLocation) }
    if status == 401 {
        #expect(response.header("WWW-Authenticate")?.lowercased().hasPrefix("bearer") == true,
                "\(what)a 401 carries WWW-Authenticate: Bearer, got \(response.header("WWW-Authenticate") ?? "none")", sourceLocation: sourceLocation)
    }
    if status == 429 || status == 503 {
        let retryAfter = response.header("Retry-After").flatMap { Int($0) }
        #expect(retryAfter.map { $0 >= 1 } == true, "\(what)Retry-After in whole seconds, got \(response.header("Retry-After") ?? "none")", sourceLocation: sourceLocation)
    }
    expectCommonHeaders(response, comment, sourceLocation: sourceLocation)
}

func expectCommonHeaders(_ response: JSONResponse, _ comment: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(response.header("X-Content-Type-Options") == "nosniff", "\(comment) nosniff", sourceLocation: sourceLocation)
    #expect(response.header("X-Request-Id")?.isEmpty == false, "\(comment) X-Request-Id", sourceLocation: sourceLocation)
}

/// A JSON success whose body holds private data or tokens: `Cache-Control: no-store`.
func expectPrivateJSON(_ response: JSONResponse, _ status: Int, _ comment: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(response.status == status, "\(comment) \(response)", sourceLocation: sourceLocation)
    #expect(response.header("Content-Type")?.lowercased().hasPrefix("application/json") == true,
            "\(comment) JSON content type, got \(response.header("Content-Type") ?? "none")", sourceLocation: sourceLocation)
    #expect(response.header("Cache-Control")?.contains("no-store") == true,
            "\(comment) tokens and private data carry Cache-Control: no-store, got \(response.header("Cache-Control") ?? "none")", sourceLocation: sourceLocation)
    expectCommonHeaders(response, comment, sourceLocation: sourceLocation)
}

/// The User object (private): every field, of its type.
func expectUser(_ value: Any?, email: String? = nil, displayName: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let user = value as? [String: Any] else {
        Issue.record("not a User object: \(String(describing: value))", sourceLocation: sourceLocation)
        return
    }
    #expect(Set(user.keys).isSuperset(of: ["id", "email", "emailVerified", "displayName", "photoURL", "createdAt"]),
            "User has every field: \(user.keys.sorted())", sourceLocation: sourceLocation)
    #expect((user["id"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
    #expect(user["emailVerified"] is Bool, "emailVerified is a boolean", sourceLocation: sourceLocation)
    #expect(user["photoURL"] is NSNull || user["photoURL"] is String, "photoURL is null or a string", sourceLocation: sourceLocation)
    #expect(isContractTime(user["createdAt"]), "createdAt is RFC 3339 whole seconds: \(String(describing: user["createdAt"]))", sourceLocation: sourceLocation)
    if let email { #expect(user["email"] as? String == email, sourceLocation: sourceLocation) }
    if let displayName { #expect(user["displayName"] as? String == displayName, sourceLocation: sourceLocation) }
    for secret in ["password", "passwordHash", "password_hash"] {
        #expect(user[secret] == nil, "User carries no \(secret)", sourceLocation: sourceLocation)
    }
}

/// A TokenPair: a JWT access token, Bearer, its lifetime, an opaque refresh token of at
/// least 256 bits, the user; never cached.
func expectTokenPair(
    _ response: JSONResponse, _ status: Int, expiresIn: Int = 3600, email: String? = nil, displayName: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    expectPrivateJSON(response, status, "TokenPair", sourceLocation: sourceLocation)
    guard response.status == status else { return }
    #expect((response["accessToken"] as? String).flatMap(JWTParts.init) != nil, "accessToken is a JWT: \(response)", sourceLocation: sourceLocation)
    #expect(response["tokenType"] as? String == "Bearer", sourceLocation: sourceLocation)
    #expect(response["expiresIn"] as? Int == expiresIn, "expiresIn: \(String(describing: response["expiresIn"]))", sourceLocation: sourceLocation)
    let refresh = response["refreshToken"] as? String ?? ""
    // 256 bits are 43 base64url characters or 64 hex digits; anything shorter cannot hold them.
    #expect(refresh.count >= 43, "the refresh token holds at least 256 bits: \(refresh.count) characters", sourceLocation: sourceLocation)
    #expect(refresh.split(separator: ".").count != 3, "the refresh token is opaque, not a JWT", sourceLocation: sourceLocation)
    expectUser(response["user"], email: email, displayName: displayName, sourceLocation: sourceLocation)
    expectNoSecrets(response, sourceLocation: sourceLocation)
}

/// Nothing that reveals how passwords are stored ever reaches a client.
func expectNoSecrets(_ response: JSONResponse, also secrets: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) {
    for secret in ["pbkdf2", "password_hash", "refresh_hash"] + secrets where !secret.isEmpty {
        #expect(!response.text.contains(secret), "the response must not contain \(secret): \(response)", sourceLocation: sourceLocation)
    }
}
