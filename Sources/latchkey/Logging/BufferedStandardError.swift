import Glibc
import Synchronization
import Threads

/// Standard error for the access log: lines are gathered in memory and written together
/// every 100 ms, or as soon as 64 KiB wait, instead of a `write(2)` per request. Each event
/// loop writes into a share of its own (with its own cached time), so two loops never
/// touch one lock or cache line per request. A line is never split; lines of different
/// loops may reach the file up to 100 ms out of order. What waits is written at exit; a
/// crash loses at most the last 100 ms.
final class BufferedStandardError: Sendable {
    static let shared = BufferedStandardError()
    static let flushThreshold = 65_536
    static let shares = 64

    private struct Share {
        var pending: [UInt8] = []
        var time = LogTime()
    }

    /// A class around each lock: a `Mutex` cannot be an array's element.
    private final class ShareBox: Sendable {
        let state = Mutex(Share())
    }

    private let shares = (0..<BufferedStandardError.shares).map { _ in ShareBox() }
    /// Held while writing, so batches of one share reach the file in the order gathered.
    private let writing = Mutex(())

    private init() {
        DedicatedThread.start { [self] in
            // Bounded by the process: one flush per 100 ms until exit.
            while true {
                usleep(100_000)
                flush()
            }
        }
        atexit { BufferedStandardError.shared.flush() }
    }

    /// `write` puts one whole line into the share's buffer, under its lock, given the
    /// current second as RFC 3339 bytes.
    func append(share index: Int, _ write: (inout [UInt8], [UInt8]) -> Void) {
        let full = shares[index % shares.count].state.withLock { share in
            write(&share.pending, share.time.now())
            return share.pending.count >= Self.flushThreshold
        }
        if full { flush() }
    }

    func flush() {
        writing.withLock { _ in
            for share in shares {
                let batch = share.state.withLock { share in
                    var taken: [UInt8] = []
                    swap(&taken, &share.pending)
                    return taken
                }
                write(batch)
            }
        }
    }

    private func write(_ batch: [UInt8]) {
        var written = 0
        // Each pass writes at least one byte or gives up (standard error gone).
        while written < batch.count {
            let count = batch.withUnsafeBytes { Glibc.write(2, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            written += count
        }
    }
}
