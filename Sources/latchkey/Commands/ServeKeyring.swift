import AuthCrypto
import LatchkeyCore
import Logging

/// The keys `serve` signs with: the `signingKeys` setting as given, or else the data
/// directory's key file, read again within seconds of `latchkey keys rotate|retire`.
enum ServeKeyring {
    static let pollInterval: Duration = .seconds(2)

    static func make(_ settings: Settings, logger: Logger) throws -> CurrentKeyring {
        if let configured = settings.signingKeys {
            return CurrentKeyring(try Keyring(keys: configured.map { try SigningKey(id: $0.id, secret: $0.secret) }))
        }
        let directory = settings.dataDir
        let keys = CurrentKeyring(try Keyring(keys: SigningKeyFile.loadOrCreate(inDirectory: directory).map(\.key)))
        Task.detached {
            // Bounded by the process: a stat every two seconds until exit.
            var seen = SigningKeyFile.version(ofFileInDirectory: directory)
            while !Task.isCancelled {
                try? await Task.sleep(for: pollInterval)
                let version = SigningKeyFile.version(ofFileInDirectory: directory)
                guard version != seen else { continue }
                seen = version
                do {
                    let keyring = try Keyring(keys: SigningKeyFile.read(directory + "/" + SigningKeyFile.fileName).map(\.key))
                    guard keyring.keyIDs != keys.keyring.keyIDs else { continue }
                    keys.replace(with: keyring)
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
