import FlatJSON

/// Apple's answers, read as bytes: the refresh token of a code exchange, or the `error`
/// code of a refusal (RFC 6749 §5.1 and §5.2, as Apple's token and revocation endpoints
/// answer).
enum AppleTokenResponse {
    /// Apple's tokens are a few dozen bytes; anything longer is not one.
    static let maximumTokenLength = 1024

    /// The `refresh_token` of a 200 answer to `grant_type=authorization_code`.
    static func refreshToken(in body: [UInt8]) throws(AppleTokenError) -> String {
        let object = body.withUnsafeBufferPointer { FlatJSONObject(parsing: $0) }
        guard let object else { throw .malformedAnswer("not a JSON object") }
        guard let token = object.string("refresh_token") else { throw .malformedAnswer("no refresh_token") }
        guard isPlausibleToken(Array(token.utf8)[...]) else { throw .malformedAnswer("a refresh_token that is empty, too long or not visible ASCII") }
        return token
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
