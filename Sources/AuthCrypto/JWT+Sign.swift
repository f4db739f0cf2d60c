import FlatJSON

/// JSON Web Tokens (RFC 7519) signed with HMAC-SHA256 and a key id. Only HS256 exists
/// here: one algorithm, pinned, leaves no algorithm-confusion attack to defend against.
public enum JWT {
    /// Tokens longer than this are refused before any work is done. Ours are a few hundred
    /// bytes; the cap bounds what an attacker can make us decode.
    public static let maximumTokenLength = 8 * 1024

    /// Signs with the keyring's first key. The claims should include `exp`:
    /// `verifyFlatClaims` refuses tokens without one. Written by hand, without
    /// `JSONEncoder`: this runs for every login and refresh.
    public static func sign(_ claims: FlatJSONObject, with keyring: Keyring) -> String {
        sign(payload: claims.serialized(), with: keyring)
    }

    private static func sign(payload: [UInt8], with keyring: Keyring) -> String {
        let key = keyring.signingKey

        var signingInput = key.encodedHeader
        signingInput.append(UInt8(ascii: "."))
        signingInput.append(contentsOf: Base64URL.encode(payload).utf8)
        let signature = [UInt8](unsafeUninitializedCapacity: HMACSHA256.codeLength) { output, initialized in
            signingInput.withUnsafeBufferPointer { key.hmacKey.authenticate($0, into: output) }
            initialized = HMACSHA256.codeLength
        }

        signingInput.append(UInt8(ascii: "."))
        signingInput.append(contentsOf: Base64URL.encode(signature).utf8)
        return String(decoding: signingInput, as: UTF8.self)
    }
}
