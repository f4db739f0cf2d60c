/// When a durable queue's worker tries an item again after a failure (a mail delivery, a
/// revocation at Apple): 2, 4, 8 ... seconds, at most an hour.
enum RetryBackoff {
    static let maximum: Int64 = 3600

    /// The delay before attempt `attempts + 1`.
    static func delay(afterAttempts attempts: Int) -> Int64 {
        min(maximum, Int64(1) << min(max(attempts, 0) + 1, 12))
    }
}
