import Synchronization

/// Jobs per commit and the commit's seconds, for `/metrics`, whichever writer commits.
final class WriteStatistics: Sendable {
    private let histograms = Mutex((
        batchSizes: Histogram(bounds: Histogram.batchBounds), commitSeconds: Histogram(bounds: Histogram.latencyBounds)
    ))

    func record(batchSize: Int, commitSeconds: Double) {
        histograms.withLock { histograms in
            histograms.batchSizes.observe(Double(batchSize))
            histograms.commitSeconds.observe(commitSeconds)
        }
    }

    var snapshot: (batchSizes: Histogram, commitSeconds: Histogram) {
        histograms.withLock { $0 }
    }
}
