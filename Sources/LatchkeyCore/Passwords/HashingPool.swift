import Dispatch
import Glibc
import Synchronization
import Threads

/// Thrown when the password-hashing queue is full: the caller answers 503 with
/// `Retry-After` instead of letting a login storm pile up.
public struct HashingPoolSaturated: Error, Sendable {}

/// A bounded pool of threads of its own for PBKDF2, with a bounded queue. Hashes cost
/// hundreds of milliseconds of CPU; on Swift's cooperative pool they would starve every
/// other task, and unbounded they would queue without end.
public final class HashingPool: Sendable {
    private struct Job: Sendable {
        let run: @Sendable () -> Void
    }

    private let queue = Mutex<[Job]>([])
    private let available = DispatchSemaphore(value: 0)
    private let refused = Atomic<Int>(0)
    public let capacity: Int

    public init(threads: Int, capacity: Int) {
        self.capacity = capacity
        for _ in 0..<max(1, threads) {
            DedicatedThread.start { [self] in work() }
        }
    }

    /// Jobs waiting for a thread (for `/metrics` and tests).
    public var queueDepth: Int { queue.withLock { $0.count } }
    /// Jobs refused because the queue was full, since start.
    public var rejections: Int { refused.load(ordering: .relaxed) }

    public func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let accepted = queue.withLock { jobs in
                guard jobs.count < capacity else { return false }
                jobs.append(Job { continuation.resume(returning: work()) })
                return true
            }
            if accepted {
                available.signal()
            } else {
                refused.add(1, ordering: .relaxed)
                continuation.resume(throwing: HashingPoolSaturated())
            }
        }
    }

    private func work() {
        // Below the event loops: on a busy machine a login storm takes what CPU is left
        // and token-authenticated reads stay fast. (On Linux the nice value is per thread.)
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        while true {
            available.wait()
            guard let job = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            job.run()
        }
    }
}
