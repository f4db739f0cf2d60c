import Glibc

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

    private var entries: [TokenBytes: Entry] = [:]
    private let capacity: Int

    public init(capacity: Int = 4096) {
        self.capacity = capacity
    }

    func entry(for token: String) -> Entry? {
        entries[TokenBytes(token)]
    }

    func store(_ entry: Entry, for token: String) {
        // Cheaper than LRU bookkeeping on every hit; a full cache refills within seconds.
        if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
        entries[TokenBytes(token)] = entry
    }
}

/// A token as a dictionary key by its bytes. `String`'s own `==` and hashing follow
/// Unicode canonical equivalence, under which a token with U+212A KELVIN SIGN in place of
/// a `K` would find the entry of the real token, and skip the signature check that would
/// refuse it.
struct TokenBytes: Hashable {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    /// On every cache hit: the lengths, then the contiguous bytes. A generic walk of the
    /// two `UTF8View`s cost some 90 instructions a byte, a quarter of GET /v1/users/me.
    static func == (left: TokenBytes, right: TokenBytes) -> Bool {
        guard left.text.utf8.count == right.text.utf8.count else { return false }
        var (left, right) = (left.text, right.text)
        return left.withUTF8 { left in
            right.withUTF8 { right in
                left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
