internal import SQLite
import Threads

/// The one writer connection, on a thread of its own, committing in batches: every job
/// waiting when the writer becomes free runs in one transaction, each inside a savepoint
/// so a failing job rolls back alone, and one commit (one fsync, `synchronous=FULL`)
/// makes the whole batch durable. A caller resumes only after that commit.
final class SQLiteWriter: Sendable {
    private let queue = WriteQueue()
    let statistics = WriteStatistics()

    /// Takes ownership of `connection`; nothing else may use it afterwards.
    init(connection: Connection) {
        DedicatedThread.start(named: "db-writer") { [self] in run(connection) }
    }

    /// Queues `job` for the next batch; its `finish` runs on the writer thread once the
    /// batch is committed (or failed), exactly once. Keep it short: the writer waits for it.
    func submit(_ job: WriteJob) {
        queue.submit(job)
    }

    /// Lets the queued jobs finish, then ends the writer thread.
    func stop() {
        queue.requestStop()
        queue.waitUntilStopped()
    }

    private func run(_ connection: Connection) {
        // The jobs see the store connection; the batching around them stays SQLite's.
        let store = StoreConnection(.sqlite(connection))
        queue.serve { batch in commit(batch, on: connection, store: store) }
    }

    /// Transaction statements go through `run`, which caches them prepared: `execute`
    /// would parse them again for every job.
    private func commit(_ batch: [WriteJob], on connection: Connection, store: StoreConnection) {
        do {
            try connection.run("BEGIN IMMEDIATE")
        } catch {
            batch.forEach { $0.finish(error) }
            return
        }
        var succeeded: [WriteJob] = []
        for (position, job) in batch.enumerated() {
            var toldItsCaller = false
            do {
                try connection.run("SAVEPOINT job")
                let failure: (any Error)?
                do {
                    try job.run(store)
                    failure = nil
                } catch {
                    failure = error
                }
                if let failure {
                    job.finish(failure)  // its changes are rolled back below, whatever the batch does
                    toldItsCaller = true
                    try connection.run("ROLLBACK TO job")
                    try connection.run("RELEASE job")
                } else {
                    try connection.run("RELEASE job")
                    succeeded.append(job)
                    toldItsCaller = true  // it will hear at the commit, with the others
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
            statistics.record(batchSize: batch.count, commitSeconds: seconds)
            succeeded.forEach { $0.finish(nil) }
        } catch {
            try? connection.run("ROLLBACK")
            succeeded.forEach { $0.finish(error) }
        }
    }
}

/// The batch's transaction ended under the writer (SQLite rolled it back itself).
struct TransactionLost: Error {}
