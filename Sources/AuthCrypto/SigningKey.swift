/// One HS256 key and the id (`kid`) tokens name it by, so keys can rotate: a token says
/// which key signed it and verification never has to guess.
public struct SigningKey: Sendable {
    /// RFC 7518 §3.2: an HS256 key must be at least as long as the hash output.
    public static let minimumSecretLength = 32
    /// Ids travel in `LATCHKEY_SIGNING_KEYS` as `kid:base64key,...` and in every token
    /// header, so they are kept short and free of separators and JSON escapes.
    public static let maximumIDLength = 64

    public let id: String
    public let secret: [UInt8]

    /// The base64url JOSE header every token signed with this key carries, computed once
    /// so signing does not re-encode it and verification can match it byte for byte.
    let encodedHeader: [UInt8]
    /// The secret prepared for HMAC once, instead of on every token.
    let hmacKey: HMACKey

    public init(id: String, secret: [UInt8]) throws(SigningKeyError) {
        guard Self.isValidID(id) else { throw .invalidID }
        guard secret.count >= Self.minimumSecretLength else { throw .secretTooShort }
        self.id = id
        self.secret = secret
        self.hmacKey = HMACKey(secret)
        let header = #"{"alg":"HS256","typ":"JWT","kid":"\#(id)"}"#
        self.encodedHeader = Array(Base64URL.encode(Array(header.utf8)).utf8)
    }

    static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= maximumIDLength && id.utf8.allSatisfy(isAllowedInID)
    }

    /// Letters, digits, `-`, `_` and `.`: safe unescaped in JSON, URLs and our env syntax.
    private static func isAllowedInID(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }
}

/// Secrets never reach a log line: printing, interpolating or dumping a key shows its id only.
extension SigningKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "SigningKey(id: \(id), secret: <redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["id": id, "secret": "<redacted>"]) }
}

/// Why a configured key was refused. Carries no key material.
public enum SigningKeyError: Error, Equatable, Sendable {
    /// Empty, longer than 64 bytes, or containing characters other than `A-Z a-z 0-9 - _ .`.
    case invalidID
    /// Shorter than 32 bytes.
    case secretTooShort
}
