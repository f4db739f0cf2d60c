/// Counts of observations at or below each bound, with their sum, in the shape a
/// Prometheus histogram is exposed in. Fixed bounds, so observing costs a short search and
/// no allocation.
public struct Histogram: Sendable {
    public let bounds: [Double]
    /// `counts[i]` observations fell at or below `bounds[i]` (and above the bound before);
    /// the last slot holds those above every bound.
    public private(set) var counts: [UInt64]
    public private(set) var sum: Double = 0
    public var count: UInt64 { counts.reduce(0, +) }

    public init(bounds: [Double]) {
        self.bounds = bounds
        counts = Array(repeating: 0, count: bounds.count + 1)
    }

    public mutating func observe(_ value: Double) {
        var slot = 0
        while slot < bounds.count, value > bounds[slot] { slot += 1 }
        counts[slot] += 1
        sum += value
    }

    /// Adds another histogram of the same bounds (the loops' shares of one route).
    public mutating func merge(_ other: Histogram) {
        for slot in counts.indices { counts[slot] += other.counts[slot] }
        sum += other.sum
    }

    /// Seconds, from half a millisecond to ten seconds.
    public static let latencyBounds = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    /// Jobs in one database commit.
    public static let batchBounds: [Double] = [1, 2, 4, 8, 16, 32, 64, 128, 256]
}
