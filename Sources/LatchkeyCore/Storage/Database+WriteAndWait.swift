import Dispatch
import Synchronization

extension Database {
    /// Runs `body` in the writer's next batch and waits for it to commit; nil when it
    /// failed. Blocks the calling thread: only for a worker on a thread of its own
    /// (`PollingThread`), never an event loop or a task.
    func writeAndWait<T: Sendable>(_ body: @escaping @Sendable (StoreConnection) throws -> T) -> T? {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<T?>(nil)
        submitWrite(body, completion: { outcome in
            if case .success(let value) = outcome { result.withLock { $0 = value } }
            done.signal()
        })
        done.wait()
        return result.withLock { $0 }
    }
}
