import Synchronization

/// Password checks whose hash has not finished, per key. The stored failure counts only
/// grow once a hash is done, so without this a burst of parallel guesses would all read
/// the same count and all be hashed. It also caps how many hashes one account or one
/// address may have queued at once, so neither can fill the hashing queue for everyone.
final class PasswordChecksInFlight: Sendable {
    /// A claim on one place under each of several keys, all or none.
    struct Claim: Sendable, Equatable {
        let key: String
        /// Places allowed under this key, counting the ones already taken.
        let allowance: Int
    }

    private let counts = Mutex<[String: Int]>([:])

    /// Takes a place under every key, or none when any key has no place left; returns
    /// the first claim that had no place.
    func reserve(_ claims: [Claim]) -> Claim? {
        counts.withLock { counts in
            if let full = claims.first(where: { counts[$0.key, default: 0] >= $0.allowance }) { return full }
            for claim in claims { counts[claim.key, default: 0] += 1 }
            return nil
        }
    }

    func release(_ claims: [Claim]) {
        counts.withLock { counts in
            for claim in claims {
                let left = counts[claim.key, default: 1] - 1
                counts[claim.key] = left > 0 ? left : nil
            }
        }
    }
}
