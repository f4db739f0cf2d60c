import Synchronization

/// What a passkey sign-in checks before its write, kept between sign-ins by credential id:
/// the stored key, its account and that account's user handle. A sign-in with a passkey
/// seen before then reads nothing ahead of its write. The write reads the credential again
/// and goes on only if its key and account are still these, so a passkey deleted since (here
/// or on another instance) is refused there as before, and its entry is forgotten. Bounded,
/// emptied when full.
final class KnownCredentials: Sendable {
    struct Credential: Sendable {
        let userID: String
        let publicKey: [UInt8]
        /// Made with the account's first passkey and never changed: nil only for a credential
        /// whose account has none, which no registration leaves behind.
        let userHandle: [UInt8]?
    }

    static let capacity = 10_000
    private let known = Mutex<[[UInt8]: Credential]>([:])

    /// The credential `id`, from memory or else from `read` (kept when found).
    func credential(_ id: [UInt8], read: () throws -> Credential?) throws -> Credential? {
        if let credential = known.withLock({ $0[id] }) { return credential }
        guard let credential = try read() else { return nil }
        known.withLock { known in
            if known.count >= Self.capacity { known.removeAll(keepingCapacity: true) }
            known[id] = credential
        }
        return credential
    }

    func forget(_ id: [UInt8]) {
        known.withLock { _ = $0.removeValue(forKey: id) }
    }
}
