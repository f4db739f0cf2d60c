import AuthCrypto
import FoundationEssentials

/// The signing key generated into the data directory on first start: one
/// `kid:base64key` line.
public enum SigningKeyFile {
    public static let fileName = "signing-key"

    /// Reads the key file, creating it with a new random key if it does not exist.
    public static func loadOrCreate(inDirectory directory: String) throws -> SigningKey {
        let path = directory + "/" + fileName
        let text = try SecretFile.loadOrCreate(path, describing: "signing key") {
            let id = SecureRandom.bytes(6).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
            return id + ":" + Data(SecureRandom.bytes(64)).base64EncodedString()
        }
        let parts = text.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let secret = Data(base64Encoded: String(parts[1])),
              let key = try? SigningKey(id: String(parts[0]), secret: Array(secret)) else {
            throw SecretFileError(description: "the signing key file \(path) is malformed; delete it to generate a new key (this signs everyone out)")
        }
        return key
    }
}
