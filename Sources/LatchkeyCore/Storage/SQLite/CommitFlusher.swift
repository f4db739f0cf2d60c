internal import SQLite
import Threads

/// Makes the writer's commits durable on a thread of its own, so the writer runs the next
/// batch while the disk flushes the last: the writer commits without a sync
/// (`synchronous=NORMAL`) and hands the batch here; this thread flushes the write-ahead log
/// once for every batch waiting (`WriteQueue`, as the writer's own jobs wait), then tells
/// their callers. No caller hears of a write before its commit is on disk, as with
/// `synchronous=FULL`, but a batch no longer waits behind the one before it.
///
/// A failed flush stops the process: the batches' changes are visible to every reader
/// already and may be lost with the page cache (Linux marks the pages clean after a
/// failed write-back), so carrying on would answer from writes that might never have
/// happened. PostgreSQL does the same (`data_sync_retry = off`); the next start recovers
/// from what is on disk.
final class CommitFlusher: Sendable {
    private struct Committed: Sendable {
        let jobs: [WriteJob]
        /// Jobs in the batch, those that failed and rolled back to their savepoints included.
        let size: Int
        let commitStarted: ContinuousClock.Instant
    }

    /// Makes every commit written so far durable (`WriteAheadLog.flush`; a test's own).
    private let flushLog: @Sendable () throws -> Void
    private let statistics: WriteStatistics
    private let committed = WriteQueue<Committed>()

    convenience init(databasePath: String, statistics: WriteStatistics) {
        let log = WriteAheadLog(databasePath: databasePath)
        self.init(statistics: statistics) { try log.flush() }
    }

    init(statistics: WriteStatistics, flushLog: @escaping @Sendable () throws -> Void) {
        self.flushLog = flushLog
        self.statistics = statistics
        DedicatedThread.start(named: "db-flush") { [self] in committed.serve(flush) }
    }

    /// `jobs` were committed (their frames written); each hears `nil` once they are durable.
    func finishWhenDurable(_ jobs: [WriteJob], batchSize: Int, commitStarted: ContinuousClock.Instant) {
        committed.submit(Committed(jobs: jobs, size: batchSize, commitStarted: commitStarted))
    }

    /// Flushes what was handed over, then ends the thread.
    func stop() {
        committed.requestStop()
        committed.waitUntilStopped()
    }

    private func flush(_ batches: [Committed]) {
        do {
            try flushLog()
        } catch {
            fatalError("latchkey: stopping: \(error); the next start recovers the database from what is on disk")
        }
        let now = ContinuousClock.now
        for batch in batches {
            statistics.record(batchSize: batch.size, commitSeconds: (now - batch.commitStarted) / .seconds(1))
            for job in batch.jobs { job.finish(nil) }
        }
    }
}
