import Dispatch
internal import SQLite
import Synchronization
import Threads

/// The one writer connection, on a thread of its own, committing in batches: every job
/// waiting when the writer becomes free runs in one transaction, each inside a savepoint
/// so a failing job rolls back alone, and one commit (one fsync, `synchronous=FULL`)
/// makes the whole batch durable. A caller resumes only after that commit.
final class DatabaseWriter: Sendable {
    private struct Job: Sendable {
        /// Runs the body; false (and the caller already told) when it threw.
        let attempt: @Sendable (StoreConnection) -> Bool
        /// Resumes the caller once the batch's commit succeeded or failed.
        let finish: @Sendable ((any Error)?) -> Void
    }

    private static let maxBatch = 256
    private let pending = Mutex<[Job]>([])
    private let wake = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    /// Jobs per commit and the commit's seconds, for `/metrics`.
    let statistics = Mutex((batchSizes: Histogram(bounds: Histogram.batchBounds), commitSeconds: Histogram(bounds: Histogram.latencyBounds)))

    /// Takes ownership of `connection`; nothing else may use it afterwards.
    init(connection: Connection) {
        DedicatedThread.start { [self] in run(connection) }
    }

    /// Runs `body` in the next batch and returns its result once the batch is committed.
    func write<T: Sendable>(_ body: @escaping @Sendable (StoreConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            submit(body) { continuation.resume(with: $0) }
        }
    }

    /// Runs `body` in the next batch; `completion` runs on the writer thread once the batch
    /// is committed (or failed), exactly once. Keep it short: the writer waits for it.
    func submit<T: Sendable>(
        _ body: @escaping @Sendable (StoreConnection) throws -> T,
        completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        let box = ResultBox<T>()
        let job = Job(
            attempt: { connection in
                do {
                    box.value = try body(connection)
                    return true
                } catch {
                    completion(.failure(error))
                    return false
                }
            },
            finish: { error in
                if let error { completion(.failure(error)) } else { completion(.success(box.value!)) }
            }
        )
        pending.withLock { $0.append(job) }
        wake.signal()
    }

    /// Lets the queued jobs finish, then ends the writer thread.
    func stop() {
        stopping.store(true, ordering: .releasing)
        wake.signal()
        finished.wait()
    }

    private func run(_ connection: Connection) {
        // The jobs see the store connection; the batching around them stays SQLite's.
        let store = StoreConnection(.sqlite(connection))
        while true {
            wake.wait()
            let batch = pending.withLock { jobs -> [Job] in
                let taken = Array(jobs.prefix(Self.maxBatch))
                jobs.removeFirst(taken.count)
                return taken
            }
            if !batch.isEmpty {
                commit(batch, on: connection, store: store)
            } else if stopping.load(ordering: .acquiring) {
                break
            }
            // Every job signalled once, so wake-ups left over from a batch find nothing and loop.
        }
        finished.signal()
    }

    /// Transaction statements go through `run`, which caches them prepared: `execute`
    /// would parse them again for every job.
    private func commit(_ batch: [Job], on connection: Connection, store: StoreConnection) {
        do {
            try connection.run("BEGIN IMMEDIATE")
        } catch {
            batch.forEach { $0.finish(error) }
            return
        }
        var succeeded: [Job] = []
        for (position, job) in batch.enumerated() {
            var toldItsCaller = false
            do {
                try connection.run("SAVEPOINT job")
                if job.attempt(store) {
                    try connection.run("RELEASE job")
                    succeeded.append(job)
                    toldItsCaller = true  // it will hear at the commit, with the others
                } else {
                    toldItsCaller = true  // attempt() passed its error on already
                    try connection.run("ROLLBACK TO job")
                    try connection.run("RELEASE job")
                }
                // SQLite rolls a whole transaction back by itself on a full disk, an I/O
                // error or no memory; what ran after that would commit piecemeal.
                guard connection.isInTransaction else { throw TransactionLost() }
            } catch {
                // The batch's state is unknown: undo all of it and tell every caller.
                try? connection.run("ROLLBACK")
                if !toldItsCaller { job.finish(error) }
                succeeded.forEach { $0.finish(error) }
                batch[(position + 1)...].forEach { $0.finish(error) }
                return
            }
        }
        do {
            let started = ContinuousClock.now
            try connection.run("COMMIT")
            let seconds = (ContinuousClock.now - started) / .seconds(1)
            statistics.withLock { statistics in
                statistics.batchSizes.observe(Double(batch.count))
                statistics.commitSeconds.observe(seconds)
            }
            succeeded.forEach { $0.finish(nil) }
        } catch {
            try? connection.run("ROLLBACK")
            succeeded.forEach { $0.finish(error) }
        }
    }
}

/// The batch's transaction ended under the writer (SQLite rolled it back itself).
struct TransactionLost: Error {}

/// A job's result between its savepoint and the batch commit.
/// `@unchecked Sendable`: written and read only on the writer thread, in that order.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
