import AuthCrypto
import LatchkeyCore
import Logging

/// The keys `serve` signs with: the `signingKeys` setting as given, or else the data
/// directory's key file, read again within seconds of `latchkey keys rotate|retire`. With
/// `accessTokenAlgorithm` ES256 the P-256 keys always come from the file (generated there
/// on first start), beside the HMAC keys of the setting, which still verify older tokens.
enum ServeKeyring {
    static let pollInterval: Duration = .seconds(2)

    static func make(_ settings: Settings, logger: Logger) throws -> CurrentKeyring {
        let algorithm = settings.accessTokenAlgorithm
        let configured = try settings.signingKeys.map { try $0.map { try SigningKey(id: $0.id, secret: $0.secret) } }
        if let configured, algorithm == .hs256 {
            return CurrentKeyring(try Keyring(keys: configured))
        }
        let directory = settings.dataDir
        let entries = try SigningKeyFile.loadOrCreate(inDirectory: directory, algorithm: algorithm)
        let keys = CurrentKeyring(
            try SigningKeyFile.keyring(entries, algorithm: algorithm, configuredHMAC: configured),
            retired: SigningKeyFile.retiredPublicKeys(entries)
        )
        Task.detached {
            // Bounded by the process: a stat every two seconds until exit.
            var seen = SigningKeyFile.version(ofFileInDirectory: directory)
            while !Task.isCancelled {
                try? await Task.sleep(for: pollInterval)
                let version = SigningKeyFile.version(ofFileInDirectory: directory)
                guard version != seen else { continue }
                seen = version
                do {
                    let entries = try SigningKeyFile.read(directory + "/" + SigningKeyFile.fileName)
                    let keyring = try SigningKeyFile.keyring(entries, algorithm: algorithm, configuredHMAC: configured)
                    let retired = SigningKeyFile.retiredPublicKeys(entries)
                    let current = keys.publication
                    guard keyring.keyIDs != current.keyring.keyIDs || retired != current.retired else { continue }
                    keys.replace(with: keyring, retired: retired)
                    logger.info("signing keys changed", metadata: ["signing": "\(keyring.signingKeyID)", "verifying": "\(keyring.keyIDs.joined(separator: ","))"])
                } catch {
                    // Never fall back to no keys: the ring in use stays until the file is fixed.
                    logger.error("the signing key file changed but cannot be used, keeping the keys in use: \(error)")
                }
            }
        }
        return keys
    }
}
