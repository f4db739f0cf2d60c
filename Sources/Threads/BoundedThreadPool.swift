import Synchronization

/// Threads of its own with a bounded queue, for work that blocks its thread: a PBKDF2
/// hash (hundreds of milliseconds of CPU), a PostgreSQL read (a network round trip). On
/// Swift's cooperative pool such work would starve every other task, and on an event loop
/// every other connection; unbounded, it would queue without end. A full queue refuses at
/// once, and the caller answers 503 with `Retry-After`.
public final class BoundedThreadPool: Sendable {
    private typealias Job = @Sendable (_ worker: Int) -> Void

    private let jobs: BatchingThreads<Job>
    private let refused = Atomic<Int>(0)
    public let threads: Int
    public let capacity: Int

    /// `name` names the threads (`name-0`, `name-1`, ...) for `top -H` and `perf`.
    /// `niceness` above 0 runs them below the event loops.
    public init(named name: String, threads: Int, capacity: Int, niceness: Int32 = 0) {
        self.threads = max(1, threads)
        self.capacity = capacity
        // Batches of one: each free thread takes the next job.
        jobs = BatchingThreads(named: name, threads: threads, capacity: capacity, largestBatch: 1, niceness: niceness) { batch, worker in
            batch.forEach { $0(worker) }
        }
    }

    /// Jobs waiting for a thread (for `/metrics` and tests).
    public var queueDepth: Int { jobs.waitingCount }
    /// Jobs refused because the queue was full, since start.
    public var rejections: Int { refused.load(ordering: .relaxed) }

    /// Queues `job`, which gets the number (`0..<threads`) of the thread that runs it, so
    /// it can use that thread's own resources; false when the queue is full.
    public func submit(_ job: @escaping @Sendable (_ worker: Int) -> Void) -> Bool {
        let accepted = jobs.submit(job)
        if !accepted { refused.add(1, ordering: .relaxed) }
        return accepted
    }
}
