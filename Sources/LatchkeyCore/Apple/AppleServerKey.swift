import AuthCrypto
import FoundationEssentials

/// The team's Sign in with Apple key (`appleKeyFile`, the `.p8` Apple lets you download
/// once), read at start so a wrong path or file stops the server with a clear line rather
/// than failing the first sign-in. No byte of the file reaches an error.
public enum AppleServerKey {
    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    public static func load(path: String) throws(LoadError) -> P256PrivateKey {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(description: "cannot read the Apple key file \(path) (appleKeyFile)")
        }
        guard data.count <= 16 * 1024, let pem = String(data: data, encoding: .utf8) else {
            throw LoadError(description: "the Apple key file \(path) (appleKeyFile) is not a PEM text file such as Apple's .p8")
        }
        do throws(P256KeyError) {
            return try P256PrivateKey(pem: pem)
        } catch {
            let why = switch error {
            case .malformed: "it does not read as a PEM private key"
            case .unsupportedFormat: "it holds another PEM block (an encrypted key, a certificate or a public key)"
            case .unsupportedCurve: "its key is not on P-256"
            }
            throw LoadError(description: "the Apple key file \(path) (appleKeyFile) is not the .p8 from Apple's developer site: \(why)")
        }
    }
}
