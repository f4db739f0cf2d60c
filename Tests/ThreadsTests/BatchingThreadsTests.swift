import Dispatch
import Glibc
import Synchronization
import Testing
import Threads

/// How a batching thread groups what it is given: everything waiting at once, and with a
/// linger, more of it after batches of several, never holding back items that come alone.
@Suite struct BatchingThreadsTests {
    /// The batches a thread processed; each waits for `release` before the next is taken.
    private final class Recorder: Sendable {
        let batches = Mutex<[[Int]]>([])
        let processed = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)

        func process(_ batch: [Int]) {
            batches.withLock { $0.append(batch) }
            processed.signal()
            release.wait()
        }

        func waitForBatch() -> Bool {
            processed.wait(timeout: .now() + .seconds(5)) == .success
        }
    }

    @Test func afterABatchOfSeveralTheThreadWaitsForMoreBeforeTakingFewer() throws {
        let recorder = Recorder()
        let threads = BatchingThreads<Int>(named: "test-batch", threads: 1, capacity: 16, lingerMicroseconds: 2_000_000) { batch, _ in
            recorder.process(batch)
        }
        #expect(threads.submit(1))
        #expect(recorder.waitForBatch())
        #expect(threads.submit(2) && threads.submit(3))
        recorder.release.signal()
        #expect(recorder.waitForBatch(), "after a batch of one, no linger: [2, 3] at once")
        #expect(threads.submit(4))
        recorder.release.signal()
        usleep(200_000)  // well inside the linger: 4 alone is fewer than the 2 of the batch before
        #expect(threads.submit(5))
        #expect(recorder.waitForBatch())
        recorder.release.signal()
        #expect(recorder.batches.withLock { $0 } == [[1], [2, 3], [4, 5]])
    }

    @Test func itemsThatComeOneAtATimeAreNotHeldBack() throws {
        let recorder = Recorder()
        // A linger of a minute: any wait for an item that came alone would end the test.
        let threads = BatchingThreads<Int>(named: "test-batch", threads: 1, capacity: 16, lingerMicroseconds: 60_000_000) { batch, _ in
            recorder.process(batch)
        }
        for item in 1...3 {
            #expect(threads.submit(item))
            #expect(recorder.waitForBatch(), "item \(item) was held back")
            recorder.release.signal()
        }
        #expect(recorder.batches.withLock { $0 } == [[1], [2], [3]])
    }
}
