import Foundation
import TestSupport

/// Runs `body` on `count` threads of their own, released together once all are started,
/// and returns their results in order: the closest a test gets to requests arriving at
/// the same instant.
func concurrently<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
    let results = ResultSlots<T>(count)
    let ready = DispatchSemaphore(value: 0)
    let gate = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        Thread {
            ready.signal()
            gate.wait()
            results.set(index, body(index))
            done.leave()
        }.start()
    }
    for _ in 0..<count { ready.wait() }
    for _ in 0..<count { gate.signal() }
    done.wait()
    return results.values
}

/// `@unchecked Sendable`: `lock` guards `slots`.
private final class ResultSlots<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [T?]

    init(_ count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: T) { lock.withLock { slots[index] = value } }

    var values: [T] { lock.withLock { slots.map { $0! } } }
}
