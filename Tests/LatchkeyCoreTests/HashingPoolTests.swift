import Foundation
@testable import LatchkeyCore
import Synchronization
import Testing

@Suite struct HashingPoolTests {
    @Test func runsWorkAndReturnsItsResult() async throws {
        let pool = HashingPool(threads: 2, capacity: 4)
        let value = try await pool.run { 6 * 7 }
        #expect(value == 42)
    }

    @Test func aFullQueueRefusesInsteadOfPilingUp() async throws {
        let pool = HashingPool(threads: 1, capacity: 1)
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        // One job occupies the only thread, one waits in the queue: the queue is full.
        let busy = Task { try await pool.run { started.signal(); release.wait() } }
        started.wait()
        let queued = Task { try await pool.run { 1 } }
        for _ in 0..<200 where pool.queueDepth < 1 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(pool.queueDepth == 1)
        await #expect(throws: HashingPoolSaturated.self) { try await pool.run { 2 } }
        release.signal()
        try await busy.value
        #expect(try await queued.value == 1)
    }
}
