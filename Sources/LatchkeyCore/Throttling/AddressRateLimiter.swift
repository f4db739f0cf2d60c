import Synchronization

/// Requests per client address per fixed window, in memory. Its table is bounded: under a
/// flood of distinct addresses it forgets finished windows first, then arbitrary entries,
/// so memory stays flat and nobody stays locked out past a window.
public final class AddressRateLimiter: Sendable {
    private struct Window {
        var start: Int64
        var count: Int
    }

    public let limit: Int
    public let window: Int64
    private let maxTracked: Int
    private let windows = Mutex<[String: Window]>([:])

    public init(limit: Int, window: Int64 = 60, maxTracked: Int = 100_000) {
        self.limit = limit
        self.window = window
        self.maxTracked = maxTracked
    }

    /// Counts one request from `key`; throws once the window's limit is spent.
    public func admit(_ key: String, now: Int64 = UnixTime.now()) throws(Throttled) {
        let retryAfter: Int64? = windows.withLock { windows in
            if var current = windows[key], now - current.start < window {
                guard current.count < limit else { return current.start + window - now }
                current.count += 1
                windows[key] = current
                return nil
            }
            if windows.count >= maxTracked { evict(&windows, now: now) }
            windows[key] = Window(start: now, count: 1)
            return nil
        }
        if let retryAfter { throw Throttled(retryAfter: Int(retryAfter)) }
    }

    public var trackedCount: Int { windows.withLock { $0.count } }

    /// Frees a tenth of the table at once, so the O(n) pass runs once per many new
    /// addresses instead of on every one of them.
    private func evict(_ windows: inout [String: Window], now: Int64) {
        windows = windows.filter { now - $0.value.start < window }
        let target = maxTracked - max(1, maxTracked / 10)
        if windows.count > target {
            windows = Dictionary(uniqueKeysWithValues: windows.prefix(target).map { ($0.key, $0.value) })
        }
    }
}
