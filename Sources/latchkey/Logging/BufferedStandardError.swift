import Glibc
import Synchronization
import Threads

/// Standard error for the access log: lines are gathered in memory and written together
/// by a thread of its own (`log-writer`), every 100 ms or as soon as 64 KiB wait in one
/// share, instead of a `write(2)` per request. Each thread (an event loop) writes into a
/// share of its own (with its own cached time), so two loops never touch one lock or cache
/// line per request, and each share is one fixed buffer, written through a pointer: a
/// line costs copies, never an allocation or a bounds check per piece. An event loop
/// never writes the file itself unless its share is full (the writer is that far behind:
/// a stuck disk), when it waits for the write as a bound on memory. A line is never split;
/// lines of different loops may reach the file up to 100 ms out of order. What waits is
/// written at exit (`ProcessExit`); a crash loses at most the last 100 ms.
final class BufferedStandardError: Sendable {
    static let shared = BufferedStandardError()
    /// A share this full wakes the writer.
    static let wakeThreshold = 65_536
    /// A share this full is written by the thread that fills it. At 20 MB of lines a
    /// second (about 90,000 requests), 100 ms of them, so the writer has a pass's time to
    /// catch up before an event loop would wait. The pages are only touched as lines come.
    static let shareCapacity = 2_097_152
    /// Room for one more line of at most this size after the writer's threshold: a longer
    /// line is written on its own.
    static let longestBufferedLine = 65_536
    static let shares = 64

    private struct Share {
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: BufferedStandardError.shareCapacity)
        var count = 0
        var time = LogTime()
    }

    /// A class around each lock: a `Mutex` cannot be an array's element.
    private final class ShareBox: Sendable {
        let state = Mutex(Share())
    }

    private let shares = (0..<BufferedStandardError.shares).map { _ in ShareBox() }
    /// Held while writing, so batches of one share reach the file in the order gathered.
    private let writing = Mutex(())
    private let writer = PollingThread()

    private init() {
        writer.start(named: "log-writer", pollInterval: 0.1) { [self] in
            flush()
            return false
        }
        Self.started.store(true, ordering: .releasing)
    }

    private static let started = Atomic<Bool>(false)

    /// Writes what waits, if anything ever wrote here (see `ProcessExit`).
    static func flushIfStarted() {
        if started.load(ordering: .acquiring) { shared.flush() }
    }

    /// The share of each thread, numbered in the order threads first write.
    private static let threadShare: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
    private let threadsSeen = Atomic<Int>(0)

    /// `write` puts one whole line of at most `maxBytes` into the calling thread's share,
    /// under its lock, given the current second as RFC 3339 bytes; it returns the bytes it
    /// wrote.
    func append(maxBytes: Int, _ write: (UnsafeMutablePointer<UInt8>, [UInt8]) -> Int) {
        guard maxBytes <= Self.longestBufferedLine else {
            let line = [UInt8](unsafeUninitializedCapacity: maxBytes) { buffer, written in written = write(buffer.baseAddress!, LogTime.now()) }
            return writing.withLock { _ in
                flushShares()
                Self.write(line[...])
            }
        }
        let (before, after) = shareOfThisThread().state.withLock { share in
            let before = share.count
            share.count += write(share.bytes + share.count, share.time.now())
            return (before, share.count)
        }
        if after > Self.shareCapacity - Self.longestBufferedLine {
            flush()
        } else if before < Self.wakeThreshold, after >= Self.wakeThreshold {
            writer.notify()
        }
    }

    private func shareOfThisThread() -> ShareBox {
        // Stored plus one: a thread that never wrote reads nil.
        if let stored = pthread_getspecific(Self.threadShare) { return shares[(Int(bitPattern: stored) - 1) % shares.count] }
        let index = threadsSeen.wrappingAdd(1, ordering: .relaxed).oldValue % shares.count
        pthread_setspecific(Self.threadShare, UnsafeRawPointer(bitPattern: index + 1))
        return shares[index]
    }

    func flush() {
        writing.withLock { _ in flushShares() }
    }

    /// With `writing` held.
    private func flushShares() {
        for share in shares {
            let batch = share.state.withLock { share in
                defer { share.count = 0 }
                return [UInt8](UnsafeBufferPointer(start: share.bytes, count: share.count))
            }
            Self.write(batch[...])
        }
    }

    private static func write(_ batch: ArraySlice<UInt8>) {
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
