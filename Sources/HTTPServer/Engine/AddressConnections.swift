import Synchronization

/// Open connections per peer address, so one client cannot hold every slot of the
/// server's connection cap. Shared by all loops; touched only on accept and close.
final class AddressConnections: Sendable {
    private let limit: Int
    private let counts = Mutex<[String: Int]>([:])

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts one more connection from `address`, or refuses it at the limit.
    func admit(_ address: String) -> Bool {
        counts.withLock { counts in
            let open = counts[address, default: 0]
            guard open < limit else { return false }
            counts[address] = open + 1
            return true
        }
    }

    func release(_ address: String) {
        counts.withLock { counts in
            let left = counts[address, default: 1] - 1
            counts[address] = left > 0 ? left : nil
        }
    }
}
