import Dispatch
import Synchronization

/// What waits for one thread on the write path, and that thread's loop: wait for items,
/// take every one waiting (up to a batch's worth) and hand them over at once, until stopped
/// with nothing left. A writer's jobs (`WriteJob`, handed to its commit) and SQLite's
/// committed batches (handed to `CommitFlusher`'s flush).
final class WriteQueue<Item: Sendable>: Sendable {
    private static var maxBatch: Int { 256 }
    private let pending = Mutex<[Item]>([])
    private let wake = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    func submit(_ item: Item) {
        pending.withLock { $0.append(item) }
        wake.signal()
    }

    /// The writer thread's loop; returns once `stop` was called and the queue is empty.
    func serve(_ take: ([Item]) -> Void) {
        while true {
            wake.wait()
            let batch = pending.withLock { items -> [Item] in
                let taken = Array(items.prefix(Self.maxBatch))
                items.removeFirst(taken.count)
                return taken
            }
            if !batch.isEmpty {
                take(batch)
            } else if stopping.load(ordering: .acquiring) {
                break
            }
            // Every item signalled once, so wake-ups left over from a batch find nothing and loop.
        }
        finished.signal()
    }

    /// Asks the loop to end once the queued items are taken.
    func requestStop() {
        stopping.store(true, ordering: .releasing)
        wake.signal()
    }

    /// Waits for the loop to end (after `requestStop`).
    func waitUntilStopped() {
        finished.wait()
    }
}
