/// Access tokens one event loop has already verified, so a client that sends the same
/// token for an hour pays for its HMAC and claims parsing once. Only the signature work is
/// skipped: expiry is checked on every use, and the session is still read every request,
/// so revocation stays immediate.
///
/// Not thread-safe by design: each event loop owns one (`PerLoop`), touched only on its
/// own thread.
public final class VerifiedTokenCache {
    struct Entry {
        let userID: String
        let sessionID: String
        let expiry: Int64
    }

    private var entries: [String: Entry] = [:]
    private let capacity: Int

    public init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    func entry(for token: String) -> Entry? {
        entries[token]
    }

    func store(_ entry: Entry, for token: String) {
        // Cheaper than LRU bookkeeping on every hit; a full cache refills within seconds.
        if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
        entries[token] = entry
    }
}
