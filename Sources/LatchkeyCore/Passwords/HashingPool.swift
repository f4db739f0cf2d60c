import Threads

/// Thrown when the password-hashing queue is full: the caller answers 503 with
/// `Retry-After` instead of letting a login storm pile up.
public struct HashingPoolSaturated: Error, Sendable {}

/// The bounded pool PBKDF2 runs on (see `BoundedThreadPool`), below the event loops: on a
/// busy machine a login storm takes what CPU is left and token-authenticated reads stay fast.
public final class HashingPool: Sendable {
    private let pool: BoundedThreadPool

    public init(threads: Int, capacity: Int) {
        pool = BoundedThreadPool(named: "hashing", threads: threads, capacity: capacity, niceness: 10)
    }

    public var capacity: Int { pool.capacity }
    /// Jobs waiting for a thread (for `/metrics` and tests).
    public var queueDepth: Int { pool.queueDepth }
    /// Jobs refused because the queue was full, since start.
    public var rejections: Int { pool.rejections }

    public func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let accepted = pool.submit { _ in continuation.resume(returning: work()) }
            if !accepted { continuation.resume(throwing: HashingPoolSaturated()) }
        }
    }
}
