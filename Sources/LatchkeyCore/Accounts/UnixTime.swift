import Glibc

/// Wall-clock seconds; every stored time is one of these.
public enum UnixTime {
    public static func now() -> Int64 { Int64(time(nil)) }
}
