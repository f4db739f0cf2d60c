import AuthCrypto
import FoundationEssentials

/// The key that seals the bodies of queued mail (see `SealedMail`), generated into the data
/// directory on first start like `RefreshTokenKey`, and apart from the database for the same
/// reason: a backup, replica or dump of the database alone cannot read a mailed link.
/// Several instances must share this file. Losing it loses only the mail still queued
/// (it can no longer be opened, and is given up once it is older than any link lives).
public struct OutboxKey: Sendable {
    public static let fileName = "outbox-key"
    let cipher: AES256GCMKey

    /// Nil unless `secret` is 32 bytes.
    public init?(secret: [UInt8]) {
        guard let cipher = AES256GCMKey(secret) else { return nil }
        self.cipher = cipher
    }

    public static func loadOrCreate(inDirectory directory: String) throws -> OutboxKey {
        let path = directory + "/" + fileName
        let text = try SecretFile.loadOrCreate(path, describing: "outbox key") {
            Data(SecureRandom.bytes(AES256GCMKey.keyLength)).base64EncodedString()
        }
        guard let secret = Data(base64Encoded: text), let key = OutboxKey(secret: Array(secret)) else {
            throw SecretFileError(description: "the outbox key file \(path) is malformed (32 bytes in base64); delete it to generate a new key (mail still queued is then given up)")
        }
        return key
    }
}
