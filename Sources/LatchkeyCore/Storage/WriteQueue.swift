import Dispatch
import Synchronization

/// The jobs waiting for one writer thread, and that thread's loop: wait for jobs, take
/// every one waiting (up to a batch's worth) and hand them to the writer's commit, until
/// stopped with nothing left.
final class WriteQueue: Sendable {
    private static let maxBatch = 256
    private let pending = Mutex<[WriteJob]>([])
    private let wake = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    func submit(_ job: WriteJob) {
        pending.withLock { $0.append(job) }
        wake.signal()
    }

    /// The writer thread's loop; returns once `stop` was called and the queue is empty.
    func serve(_ commit: ([WriteJob]) -> Void) {
        while true {
            wake.wait()
            let batch = pending.withLock { jobs -> [WriteJob] in
                let taken = Array(jobs.prefix(Self.maxBatch))
                jobs.removeFirst(taken.count)
                return taken
            }
            if !batch.isEmpty {
                commit(batch)
            } else if stopping.load(ordering: .acquiring) {
                break
            }
            // Every job signalled once, so wake-ups left over from a batch find nothing and loop.
        }
        finished.signal()
    }

    /// Asks the loop to end once the queued jobs are done.
    func requestStop() {
        stopping.store(true, ordering: .releasing)
        wake.signal()
    }

    /// Waits for the loop to end (after `requestStop`).
    func waitUntilStopped() {
        finished.wait()
    }
}
