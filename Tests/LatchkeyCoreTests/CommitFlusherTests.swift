import Dispatch
@testable import LatchkeyCore
import Synchronization
import Testing

/// SQLite's commits made durable off the writer's thread (`CommitFlusher`): no caller hears
/// of its write before the log is flushed, batches committed during a flush share the next
/// one, and a flush that fails stops the process rather than answer from lost writes.
@Suite struct CommitFlusherTests {
    /// A log whose flush waits until the test lets it go, counting the flushes.
    private final class HeldLog: Sendable {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let flushes = Atomic<Int>(0)

        func flush() {
            flushes.add(1, ordering: .relaxed)
            started.signal()
            release.wait()
        }
    }

    private final class Finished: Sendable {
        let labels = Mutex<[String]>([])
        let each = DispatchSemaphore(value: 0)
    }

    private func job(_ label: String, _ finished: Finished) -> WriteJob {
        WriteJob({ _ in label }) { result in
            if case .success(let label) = result { finished.labels.withLock { $0.append(label) } }
            finished.each.signal()
        }
    }

    /// The job's body ran (as the writer does before handing a batch over).
    private func ran(_ job: WriteJob) throws -> WriteJob {
        try job.run(StoreConnection.temporary())
        return job
    }

    @Test func aCallerHearsOfItsWriteOnlyOnceTheLogIsFlushed() throws {
        let log = HeldLog()
        let flusher = CommitFlusher(statistics: WriteStatistics()) { log.flush() }
        let finished = Finished()
        flusher.finishWhenDurable([try ran(job("a", finished))], batchSize: 1, commitStarted: .now)
        #expect(log.started.wait(timeout: .now() + 10) == .success)
        #expect(finished.each.wait(timeout: .now() + 0.2) == .timedOut)  // flushing: not yet
        log.release.signal()
        #expect(finished.each.wait(timeout: .now() + 10) == .success)
        #expect(finished.labels.withLock { $0 } == ["a"])
        flusher.stop()
    }

    @Test func batchesCommittedDuringAFlushShareTheNextInTheirOrder() throws {
        let log = HeldLog()
        let flusher = CommitFlusher(statistics: WriteStatistics()) { log.flush() }
        let finished = Finished()
        flusher.finishWhenDurable([try ran(job("first", finished))], batchSize: 1, commitStarted: .now)
        #expect(log.started.wait(timeout: .now() + 10) == .success)
        for label in ["second", "third", "fourth"] {
            flusher.finishWhenDurable([try ran(job(label, finished))], batchSize: 1, commitStarted: .now)
        }
        log.release.signal()
        #expect(log.started.wait(timeout: .now() + 10) == .success)
        log.release.signal()
        for _ in 0..<4 { #expect(finished.each.wait(timeout: .now() + 10) == .success) }
        #expect(finished.labels.withLock { $0 } == ["first", "second", "third", "fourth"])
        #expect(log.flushes.load(ordering: .relaxed) == 2)
        flusher.stop()
    }

    // The child process stops (a trap): only a process that carried on would pass.
    @Test func aFailedFlushStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            struct DiskFailed: Error {}
            let flusher = CommitFlusher(statistics: WriteStatistics()) { throw DiskFailed() }
            flusher.finishWhenDurable([], batchSize: 0, commitStarted: .now)
            flusher.stop()
        }
    }
}
