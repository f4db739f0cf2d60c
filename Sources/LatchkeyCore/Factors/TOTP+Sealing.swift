import AuthCrypto

/// The secret at rest: sealed with AES-256-GCM under the `OutboxKey`, the server-held key
/// that already keeps mailed links out of reach of the database alone (a backup, a replica,
/// a dump or an SQL injection reads only ciphertext). The user id is the associated data,
/// so a sealed secret copied onto another user's row does not open there: whoever can
/// write the database but not read the key cannot give their own factor to a victim (and
/// then sign in as the victim with their own authenticator app).
extension TOTP {
    /// `nonce ‖ ciphertext ‖ tag`, 48 bytes for a 20-byte secret; a new nonce every time.
    public func sealed(for userID: String, with key: OutboxKey) -> [UInt8] {
        key.cipher.seal(secret, authenticating: Self.associatedData(userID: userID))
    }

    /// The factor, or nil when the box was sealed for another user, under another key, was
    /// altered, or holds anything but a secret of our length.
    public static func opened(_ box: [UInt8], for userID: String, with key: OutboxKey) -> TOTP? {
        guard let secret = key.cipher.open(box, authenticating: associatedData(userID: userID)),
              secret.count == secretLength
        else { return nil }
        return TOTP(secret: secret)
    }

    /// A label of its own, so nothing else sealed under the same key (a mail body) opens as
    /// a secret, and the id's length before it, as `SealedMail` frames its parts.
    private static func associatedData(userID: String) -> [UInt8] {
        let id = Array(userID.utf8)
        let count = UInt32(id.count)
        return Array("latchkey totp_secret v1".utf8)
            + [UInt8(count >> 24), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)] + id
    }
}
