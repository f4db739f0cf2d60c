import Glibc
@testable import HTTPServer
import Threads

/// Runs blocking calls (socket reads, `HTTPServer.shutdown()`) on a fresh thread. On a
/// 2-core machine the cooperative pool has two threads; a test blocking one of them while
/// waiting for a handler task that needs it would deadlock until its timeout.
enum OwnThread {
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            start {
                continuation.resume(with: Result { try body() })
            }
        }
    }

    /// The engine's own pthread helper, detached: nothing joins these threads.
    private static func start(_ run: @escaping @Sendable () -> Void) {
        DedicatedThread.start(named: "test-thread", run)
    }
}

/// Polls `condition` every 10 ms until it holds or `limit` passes; true if it held.
func eventually(within limit: Duration = .seconds(5), _ condition: @Sendable () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}
