import Glibc

/// A point in time on the monotonic clock that a step must finish by.
public struct Deadline: Sendable {
    private let nanoseconds: UInt64

    public init(secondsFromNow seconds: Double) {
        nanoseconds = Self.now() + UInt64(max(0, seconds) * 1_000_000_000)
    }

    public var remainingMilliseconds: Int32 {
        let now = Self.now()
        guard nanoseconds > now else { return 0 }
        return Int32(clamping: (nanoseconds - now + 999_999) / 1_000_000)
    }

    /// The earlier of the two.
    public func capped(by other: Deadline) -> Deadline {
        nanoseconds <= other.nanoseconds ? self : other
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
