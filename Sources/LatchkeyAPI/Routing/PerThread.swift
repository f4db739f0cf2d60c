/// One value per thread (an event loop, a pool thread), each touched only by its own
/// thread, so the hot path takes no lock: an event loop's handlers index it by
/// `request.eventLoopIndex`, a pool's jobs by their worker index.
///
/// `@unchecked Sendable`: element `i` is used only on thread `i`; the array itself is
/// never mutated after init.
public final class PerThread<Value>: @unchecked Sendable {
    private let values: [Value]

    public init(count: Int, make: (Int) throws -> Value) rethrows {
        values = try (0..<count).map(make)
    }

    public subscript(thread: Int) -> Value { values[thread] }

    public var count: Int { values.count }
}
