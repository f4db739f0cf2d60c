import AuthCrypto

/// Apple's refresh token at rest: sealed with AES-256-GCM under the `OutboxKey`, the
/// server-held key that already keeps mailed links and TOTP secrets out of reach of the
/// database alone (a backup, a replica, a dump or an SQL injection reads only ciphertext).
/// The user id and client id are the associated data: a sealed token copied onto another
/// account's row does not open there. The same binding holds in the revocation queue, so a
/// token moves there from `apple_refresh_tokens` still sealed, without the key.
enum AppleRefreshTokenSeal {
    static func sealed(_ token: String, userID: String, clientID: String, with key: OutboxKey) -> [UInt8] {
        key.cipher.seal(Array(token.utf8), authenticating: associatedData(userID: userID, clientID: clientID))
    }

    /// The token, or nil when the box was sealed for another account or client, under
    /// another key, altered, or holds anything but a token Apple could have given.
    static func opened(_ box: [UInt8], userID: String, clientID: String, with key: OutboxKey) -> String? {
        guard let bytes = key.cipher.open(box, authenticating: associatedData(userID: userID, clientID: clientID)),
              AppleTokenResponse.isPlausibleToken(bytes[...])
        else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A label of its own, so nothing else sealed under the same key (a mail body, a TOTP
    /// secret) opens as a token, and each part's length before it.
    private static func associatedData(userID: String, clientID: String) -> [UInt8] {
        var data = Array("latchkey apple_refresh_token v1".utf8)
        for part in [userID, clientID] {
            let bytes = Array(part.utf8)
            let count = UInt32(bytes.count)
            data += [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)] + bytes
        }
        return data
    }
}
