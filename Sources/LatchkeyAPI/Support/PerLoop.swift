/// One value per event loop, each touched only by its own loop (an inline handler reads
/// `request.eventLoopIndex`), so the hot path takes no lock.
///
/// `@unchecked Sendable`: element `i` is used only on event loop `i`'s thread; the array
/// itself is never mutated after init.
public final class PerLoop<Value>: @unchecked Sendable {
    private let values: [Value]

    public init(count: Int, make: (Int) throws -> Value) rethrows {
        values = try (0..<count).map(make)
    }

    public subscript(loop: Int) -> Value { values[loop] }

    public var count: Int { values.count }
}
