import Dispatch
import Glibc
import Synchronization
import Threads

/// Threads of its own with a bounded queue, for work that blocks its thread: a PBKDF2
/// hash (hundreds of milliseconds of CPU), a PostgreSQL read (a network round trip). On
/// Swift's cooperative pool such work would starve every other task, and on an event loop
/// every other connection; unbounded, it would queue without end. A full queue refuses at
/// once, and the caller answers 503 with `Retry-After`.
public final class BoundedThreadPool: Sendable {
    private struct Job: Sendable {
        let run: @Sendable (_ worker: Int) -> Void
    }

    private let queue = Mutex<[Job]>([])
    private let available = DispatchSemaphore(value: 0)
    private let refused = Atomic<Int>(0)
    public let threads: Int
    public let capacity: Int

    /// `niceness` above 0 runs the threads below the event loops (on Linux the nice value
    /// is per thread).
    /// `name` names the threads (`name-0`, `name-1`, ...) for `top -H` and `perf`.
    public init(named name: String, threads: Int, capacity: Int, niceness: Int32 = 0) {
        self.threads = max(1, threads)
        self.capacity = capacity
        for worker in 0..<self.threads {
            DedicatedThread.start(named: "\(name)-\(worker)") { [self] in
                if niceness != 0 { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness) }
                work(worker)
            }
        }
    }

    /// Jobs waiting for a thread (for `/metrics` and tests).
    public var queueDepth: Int { queue.withLock { $0.count } }
    /// Jobs refused because the queue was full, since start.
    public var rejections: Int { refused.load(ordering: .relaxed) }

    /// Queues `job`, which gets the number (`0..<threads`) of the thread that runs it, so
    /// it can use that thread's own resources; false when the queue is full.
    public func submit(_ job: @escaping @Sendable (_ worker: Int) -> Void) -> Bool {
        let accepted = queue.withLock { jobs in
            guard jobs.count < capacity else { return false }
            jobs.append(Job(run: job))
            return true
        }
        if accepted {
            available.signal()
        } else {
            refused.add(1, ordering: .relaxed)
        }
        return accepted
    }

    private func work(_ worker: Int) {
        while true {
            available.wait()
            guard let job = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
            job.run(worker)
        }
    }
}
