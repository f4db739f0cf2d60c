import Synchronization

/// How many items batches held, for `/metrics`: a histogram any thread may add to.
final class BatchSizes: Sendable {
    private let sizes = Mutex(Histogram(bounds: Histogram.batchBounds))

    func observe(_ count: Int) {
        sizes.withLock { $0.observe(Double(count)) }
    }

    var histogram: Histogram { sizes.withLock { $0 } }
}
