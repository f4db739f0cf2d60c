import Foundation
import TestSupport

/// The three parts of a compact JWT, decoded without verifying anything, and the means to
/// build forged ones. Signatures come from Python's `hmac`, an implementation that is not
/// ours, so a forged-but-correctly-signed token is signed the way any attacker's would be.
struct JWTParts {
    let header: [String: Any]
    let payload: [String: Any]
    let encodedHeader: String
    let encodedPayload: String
    let signature: String

    init?(_ token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3,
              let header = Self.decodeObject(parts[0]), let payload = Self.decodeObject(parts[1])
        else { return nil }
        (self.header, self.payload) = (header, payload)
        (encodedHeader, encodedPayload, signature) = (parts[0], parts[1], parts[2])
    }

    static func decodeObject(_ segment: String) -> [String: Any]? {
        guard let data = base64URLDecode(segment) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    static func base64URLDecode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func segment(_ object: [String: Any]) throws -> String {
        base64URL(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    /// `header.payload.signature` with an HMAC over the first two segments; `digest` is a
    /// hashlib name (`sha256` for HS256, `sha512` for HS512).
    static func signed(header: [String: Any], payload: [String: Any], key: [UInt8], digest: String = "sha256") throws -> String {
        let input = try segment(header) + "." + segment(payload)
        let signature = try runPython("""
            import base64, hashlib, hmac, sys
            mac = hmac.new(base64.b64decode(sys.argv[1]), sys.argv[2].encode(), getattr(hashlib, sys.argv[3])).digest()
            print(base64.urlsafe_b64encode(mac).rstrip(b"=").decode())
            """, arguments: [Data(key).base64EncodedString(), input, digest])
        return input + "." + signature
    }

    /// The token with its payload replaced and the original signature kept.
    func withPayload(_ change: (inout [String: Any]) -> Void) throws -> String {
        var changed = payload
        change(&changed)
        return encodedHeader + "." + (try Self.segment(changed)) + "." + signature
    }
}
