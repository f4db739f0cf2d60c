import Dispatch
import Glibc
import Synchronization

/// Threads of their own that take work in batches: each time one is free it takes
/// everything waiting (up to `largestBatch`) and hands it to `process` at once, so work that
/// costs a network round trip (a PostgreSQL read) pays one round trip per batch, and the
/// busier the server, the larger the batches. At most `capacity` items wait; `submit` refuses
/// the next at once. One thread makes the largest batches: on 2 cores with the database
/// beside it, one thread per batcher served 15–20% more bearer checks and refreshes a second
/// than two, and a remote database's longer round trip only makes the batches larger.
/// With `largestBatch` 1 it is a plain bounded pool (`BoundedThreadPool`).
///
/// `lingerMicroseconds`, for batches that each cost a fixed price whatever their size (a
/// commit's fsync): when the batch before held several items and fewer than it are waiting
/// now, a thread waits that long once before it takes them, so the next batch shares that
/// price among as many. Items that come one at a time never wait, as with PostgreSQL's own
/// `commit_delay`, which applies only while other transactions are active.
public final class BatchingThreads<Item: Sendable>: Sendable {
    private let waiting = Mutex<[Item]>([])
    private let available = DispatchSemaphore(value: 0)
    private let capacity: Int
    private let largestBatch: Int
    private let lingerMicroseconds: UInt32

    /// The threads are named `name-0`, `name-1`, ... for `top -H` and `perf`; `process`
    /// gets each batch with that number. `niceness` above 0 runs them below the event loops
    /// (on Linux the nice value is per thread). `observeBatch` hears each batch's size before
    /// it is processed (for `/metrics`).
    public init(
        named name: String, threads: Int, capacity: Int, largestBatch: Int = 256, lingerMicroseconds: UInt32 = 0, niceness: Int32 = 0,
        observeBatch: (@Sendable (_ size: Int) -> Void)? = nil,
        process: @escaping @Sendable (_ batch: [Item], _ thread: Int) -> Void
    ) {
        self.capacity = capacity
        self.largestBatch = largestBatch
        self.lingerMicroseconds = lingerMicroseconds
        for index in 0..<max(1, threads) {
            DedicatedThread.start(named: "\(name)-\(index)") { [self] in
                if niceness != 0 { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness) }
                var previous = 0
                while true {
                    let batch = nextBatch(after: previous)
                    previous = batch.count
                    observeBatch?(batch.count)
                    process(batch, index)
                }
            }
        }
    }

    /// Items waiting for a thread.
    public var waitingCount: Int { waiting.withLock { $0.count } }

    /// Queues `item` for the next batch; false when `capacity` items are waiting already.
    public func submit(_ item: Item) -> Bool {
        let wake = waiting.withLock { waiting -> Bool? in
            guard waiting.count < capacity else { return nil }
            waiting.append(item)
            // Only the item that finds the queue empty signals: a thread that takes a
            // batch signals again for what it leaves, waking the next free thread.
            return waiting.count == 1
        }
        guard let wake else { return false }
        if wake { available.signal() }
        return true
    }

    /// The items waiting, once there are any; `previous` is the size of the thread's batch
    /// before (see `lingerMicroseconds`).
    private func nextBatch(after previous: Int) -> [Item] {
        while true {
            available.wait()
            if lingerMicroseconds > 0, previous > 1, waitingCount < previous {
                usleep(lingerMicroseconds)
            }
            let (batch, left) = waiting.withLock { waiting in
                let batch = Array(waiting.prefix(largestBatch))
                waiting.removeFirst(batch.count)
                return (batch, !waiting.isEmpty)
            }
            if left { available.signal() }
            if !batch.isEmpty { return batch }
        }
    }
}
