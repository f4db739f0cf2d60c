import Glibc

/// Wall-clock seconds; every stored time is one of these.
public enum UnixTime {
    public static func now() -> Int64 { Int64(time(nil)) }

    /// Milliseconds since 1970, from the same wall clock.
    static func nowMilliseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return UInt64(spec.tv_sec) * 1000 + UInt64(spec.tv_nsec) / 1_000_000
    }
}
