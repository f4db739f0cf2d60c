import AuthCrypto
import Synchronization

/// Passkeys' public keys built into OpenSSL keys once, not at every sign-in: building one
/// (the point decoded and checked on the curve) cost a sign-in about a third as much as
/// verifying its signature. Keyed by the stored key's bytes, so an entry can never stand
/// for another key; bounded, emptied when full.
final class PasskeyKeys: Sendable {
    static let capacity = 10_000
    private let built = Mutex<[[UInt8]: COSEKey]>([:])

    /// The key stored at registration, built (and kept) on first use.
    func key(_ encoded: [UInt8]) throws(WebAuthnFailure) -> COSEKey {
        if let key = built.withLock({ $0[encoded] }) { return key }
        let key = try WebAuthnCeremony.publicKey(encoded)
        built.withLock { keys in
            if keys.count >= Self.capacity { keys.removeAll(keepingCapacity: true) }
            keys[encoded] = key
        }
        return key
    }
}
