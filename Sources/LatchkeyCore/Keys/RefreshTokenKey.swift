import AuthCrypto
import FoundationEssentials

/// The server's key for refresh-token MACs (see `RefreshToken`), generated into the data
/// directory on first start. Apart from the database on purpose: a copy of the database
/// alone cannot make a working refresh token. Several instances must share this file.
public struct RefreshTokenKey: Sendable {
    public static let fileName = "refresh-token-key"
    let mac: HMACKey

    public init(secret: [UInt8]) {
        mac = HMACKey(secret)
    }

    public static func loadOrCreate(inDirectory directory: String) throws -> RefreshTokenKey {
        let path = directory + "/" + fileName
        let text = try SecretFile.loadOrCreate(path, describing: "refresh token key") {
            Data(SecureRandom.bytes(32)).base64EncodedString()
        }
        guard let secret = Data(base64Encoded: text), secret.count >= 32 else {
            throw SecretFileError(description: "the refresh token key file \(path) is malformed; delete it to generate a new key (this ends every session's refresh)")
        }
        return RefreshTokenKey(secret: Array(secret))
    }
}
