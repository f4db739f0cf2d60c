import FlatJSON
/// Access tokens one thread has already verified, so a client that sends the same
/// token for an hour pays for its HMAC and claims parsing once. Only the signature work is
/// skipped: expiry is checked on every use, and the session is still read every request,
/// so revocation stays immediate.
///
/// Not thread-safe by design: each event loop, and each store-read thread, owns one
/// (`PerThread`), touched only on its own thread.
public final class VerifiedTokenCache {
    struct Entry {
        let userID: String
        let sessionID: String
        let expiry: Int64
        /// The keyring it was verified with: after a rotation or retirement it is checked again.
        let keyringGeneration: Int
    }

    private var entries: [ExactBytes: Entry] = [:]
    private let capacity: Int

    public init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    func entry(for token: String) -> Entry? {
        entries[ExactBytes(token)]
    }

    func store(_ entry: Entry, for token: String) {
        // Cheaper than LRU bookkeeping on every hit; a full cache refills within seconds.
        if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
        entries[ExactBytes(token)] = entry
    }
}
