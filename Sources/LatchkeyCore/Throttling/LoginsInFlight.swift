import Synchronization

/// Logins per account whose password check has not finished. The stored failure count
/// only grows once a hash is done, so without this a burst of parallel guesses would all
/// read the same count and all be hashed: the limit would allow a whole burst, not ten.
public final class LoginsInFlight: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    public init() {}

    /// Claims a place for one attempt when stored failures plus attempts under way stay
    /// below `limit`; false means the account is (about to be) locked.
    func reserve(_ key: String, storedFailures: Int, limit: Int) -> Bool {
        counts.withLock { counts in
            let underWay = counts[key, default: 0]
            guard storedFailures + underWay < limit else { return false }
            counts[key] = underWay + 1
            return true
        }
    }

    func release(_ key: String) {
        counts.withLock { counts in
            let left = counts[key, default: 1] - 1
            counts[key] = left > 0 ? left : nil
        }
    }
}
