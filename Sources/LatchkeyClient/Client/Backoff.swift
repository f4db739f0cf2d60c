import Foundation

/// Growing pauses between retries, with a ceiling and some randomness.
public struct Backoff: Sendable, Hashable {
    /// The first pause, in seconds.
    public var initial: TimeInterval
    /// No pause is longer than this (before jitter is taken off).
    public var maximum: TimeInterval
    /// Each pause is this many times the one before.
    public var multiplier: Double
    /// Up to this fraction of each pause is taken off at random, so the clients a
    /// restarting server dropped do not all come back in the same instant.
    public var jitter: Double

    public init(initial: TimeInterval, maximum: TimeInterval, multiplier: Double = 2, jitter: Double = 0.2) {
        self.initial = max(0, initial)
        self.maximum = max(self.initial, maximum)
        self.multiplier = max(1, multiplier)
        self.jitter = min(max(0, jitter), 1)
    }

    /// The pause after `failures` failures in a row (1 for the first).
    public func delay(afterFailures failures: Int) -> TimeInterval {
        let steps = Double(max(0, failures - 1))
        // pow of a large exponent is infinite, never a trap; the cap applies either way.
        let grown = min(maximum, initial * pow(multiplier, min(steps, 64)))
        return grown * (1 - Double.random(in: 0...jitter))
    }
}
