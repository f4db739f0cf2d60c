import Foundation

/// The claims of an access token the client reads: only `sid`, the session id, which the
/// contract documents (docs/api.md, "TokenPair"), to know whether a revoked session is
/// this device's own. The signature is the server's business; nothing here trusts it.
enum AccessTokenClaims {
    static func sessionID(of accessToken: String) -> String? {
        let parts = accessToken.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        guard let payload = Base64URL.decode(String(parts[1])),
              let claims = try? JSONSerialization.jsonObject(with: payload) as? [String: Any]
        else { return nil }
        return claims["sid"] as? String
    }
}
