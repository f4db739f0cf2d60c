import AuthCrypto
import FlatJSON

/// Apple's answers, read as bytes: the refresh token of a code exchange, or the `error`
/// code of a refusal (RFC 6749 §5.1 and §5.2, as Apple's token and revocation endpoints
/// answer).
enum AppleTokenResponse {
    /// Apple's tokens are a few dozen bytes; anything longer is not one.
    static let maximumTokenLength = 1024

    /// The `refresh_token` of a 200 answer to `grant_type=authorization_code`, and the
    /// `sub` of the `id_token` beside it (nil when there is none to read).
    static func grant(in body: [UInt8]) throws(AppleTokenError) -> AppleTokenGrant {
        let object = body.withUnsafeBufferPointer { FlatJSONObject(parsing: $0) }
        guard let object else { throw .malformedAnswer("not a JSON object") }
        guard let token = object.string("refresh_token") else { throw .malformedAnswer("no refresh_token") }
        guard isPlausibleToken(Array(token.utf8)[...]) else { throw .malformedAnswer("a refresh_token that is empty, too long or not visible ASCII") }
        return AppleTokenGrant(refreshToken: token, subject: object.string("id_token").flatMap(subject(ofIDToken:)))
    }

    /// The `sub` of the ID token Apple's token endpoint answered with. Its signature is not
    /// checked: the token came straight from Apple over TLS with Apple's certificate and
    /// host checked, which OpenID Connect Core (3.1.3.7, item 6) accepts in place of one.
    static func subject(ofIDToken token: String) -> String? {
        let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1].count <= 8192, let payload = Base64URL.decode(String(decoding: parts[1], as: UTF8.self)) else { return nil }
        let claims = payload.withUnsafeBufferPointer { FlatJSONObject(parsing: $0) }
        guard let subject = claims?.string("sub"), (1...IDTokenClaims.maximumSubjectBytes).contains(subject.utf8.count) else { return nil }
        return subject
    }

    /// The `error` code of a refusal, kept only when it is a short code of letters and
    /// underscores as OAuth defines them; anything else is reported as `unrecognised`, so
    /// nothing Apple (or an impostor) sends reaches a log line unchecked.
    static func errorCode(in body: [UInt8]) -> String {
        let object = body.withUnsafeBufferPointer { FlatJSONObject(parsing: $0) }
        guard let code = object?.string("error"), (1...64).contains(code.utf8.count),
              code.utf8.allSatisfy({ (0x61...0x7A).contains($0) || $0 == UInt8(ascii: "_") })
        else { return "unrecognised" }
        return code
    }

    /// 1 to `maximumTokenLength` bytes of visible ASCII: what may be sent back to Apple in
    /// a form and stored.
    static func isPlausibleToken(_ bytes: ArraySlice<UInt8>) -> Bool {
        (1...maximumTokenLength).contains(bytes.count) && bytes.allSatisfy { (0x21...0x7E).contains($0) }
    }
}

/// What a code exchange gave: Apple's refresh token, and the user it is for (the `sub` of
/// the ID token Apple answered with, when it sent one).
struct AppleTokenGrant: Sendable {
    let refreshToken: String
    let subject: String?
}
