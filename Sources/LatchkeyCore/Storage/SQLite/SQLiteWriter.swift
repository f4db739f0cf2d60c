internal import SQLite
import Threads

/// The one writer connection, on a thread of its own, committing in batches: every job
/// waiting when the writer becomes free runs in one transaction, each inside a savepoint
/// so a failing job rolls back alone, and one commit makes the whole batch visible. The
/// commit does not wait for the disk (`synchronous=NORMAL`): `CommitFlusher` makes it
/// durable with one flush of the log while the writer goes on to the next batch, and a
/// caller resumes only after that flush.
final class SQLiteWriter: Sendable {
    private let queue = WriteQueue<WriteJob>()
    let statistics = WriteStatistics()
    private let flusher: CommitFlusher
    /// WAL pages after which a commit checkpoints on this thread (SQLite's default is 1,000).
    /// That checkpoint copies what `WALCheckpointer` has not yet and syncs the database
    /// file, and the writer waits for the disk meanwhile: at 1,000 pages, identity-token
    /// sign-ins at 64 connections ran a checkpoint about ten times a second and the writer
    /// spent a fifth of its time waiting on the disk (3% at 10,000, and 20% more sign-ins).
    /// The log then grows to about 40 MB (4 KiB pages) before it starts over, more while
    /// a long read holds its older pages.
    static let autoCheckpointPages = 10_000

    /// Takes ownership of `connection`, the database at `path`; nothing else may use it
    /// afterwards.
    init(connection: Connection, path: String) throws {
        try connection.execute("PRAGMA synchronous = NORMAL")  // the flusher syncs each commit
        try connection.execute("PRAGMA wal_autocheckpoint = \(Self.autoCheckpointPages)")
        flusher = CommitFlusher(databasePath: path, statistics: statistics)
        DedicatedThread.start(named: "db-writer") { [self] in run(connection) }
    }

    /// Queues `job` for the next batch; its `finish` runs exactly once: on the writer
    /// thread if it failed, else on the flushing thread once its batch is durable. Keep it
    /// short: the thread waits for it.
    func submit(_ job: WriteJob) {
        queue.submit(job)
    }

    /// Lets the queued jobs finish, then ends the writer thread.
    func stop() {
        queue.requestStop()
        queue.waitUntilStopped()
        flusher.stop()
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
            flusher.finishWhenDurable(succeeded, batchSize: batch.count, commitStarted: started)
        } catch {
            try? connection.run("ROLLBACK")
            succeeded.forEach { $0.finish(error) }
        }
    }
}

/// The batch's transaction ended under the writer (SQLite rolled it back itself).
struct TransactionLost: Error {}
