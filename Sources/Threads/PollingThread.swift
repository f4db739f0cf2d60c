import Dispatch
import Synchronization

/// A thread of its own that runs a pass over and over: again at once when the pass says
/// more is waiting, else after `notify()` or the poll interval, until `stop()`. For the
/// workers that drain a queue kept in the database (the mail outbox, Apple's revocations):
/// what is due is in the rows, so a missed signal costs one interval at most.
public final class PollingThread: Sendable {
    private let wake = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private let stopped = DispatchSemaphore(value: 0)

    public init() {}

    /// Starts the thread; call once. `pass` returns whether more may be due at once.
    public func start(named name: String, pollInterval: Double, _ pass: @escaping @Sendable () -> Bool) {
        DedicatedThread.start(named: name) { [self] in
            while !isStopping {
                if !pass() { _ = wake.wait(timeout: .now() + pollInterval) }
            }
            stopped.signal()
        }
    }

    /// Whether `stop()` was called: a pass checks it between items.
    public var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Something was queued: run the next pass now rather than at the next poll.
    public func notify() {
        wake.signal()
    }

    /// Lets the pass under way finish and ends the thread (started before).
    public func stop() {
        stopping.store(true, ordering: .releasing)
        wake.signal()
        stopped.wait()
    }
}
