import Glibc
import Synchronization
import Threads

/// Standard error for the access log: lines are gathered in memory and written together
/// every 100 ms, or as soon as 64 KiB wait, instead of a `write(2)` per request. A line is
/// never split. What waits is written at exit; a crash loses at most the last 100 ms.
final class BufferedStandardError: Sendable {
    static let shared = BufferedStandardError()
    static let flushThreshold = 65_536

    private let pending = Mutex<[UInt8]>([])
    /// Held while writing, so batches reach the file in the order they were gathered.
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

    @Sendable func append(_ line: [UInt8]) {
        let full = pending.withLock { buffer in
            buffer.append(contentsOf: line)
            return buffer.count >= Self.flushThreshold
        }
        if full { flush() }
    }

    func flush() {
        writing.withLock { _ in
            let batch = pending.withLock { buffer in
                var taken: [UInt8] = []
                swap(&taken, &buffer)
                return taken
            }
            guard !batch.isEmpty else { return }
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
}
