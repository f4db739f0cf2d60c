import Glibc
internal import SQLite
import Synchronization
import Threads

/// Folds the WAL back into the database once a second, on a thread and connection of its
/// own, and never blocks the writer or the readers (PASSIVE). SQLite's automatic
/// checkpoint still runs on the writer after a commit (every
/// `SQLiteWriter.autoCheckpointPages`), because only there can the WAL be emptied and
/// restarted under a steady stream of writes; with this one doing most of the copying and
/// syncing, that one finds little left to do and the writer stalls briefly.
final class WALCheckpointer: Sendable {
    private let stopping = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)

    init(path: String, interval: Duration = .seconds(1)) throws {
        let connection = try Connection(path: path, mode: .readWrite)
        let microseconds = UInt32(interval.components.seconds * 1_000_000 + interval.components.attoseconds / 1_000_000_000_000)
        DedicatedThread.start(named: "wal-checkpoint") { [self] in
            while !stopping.load(ordering: .acquiring) {
                usleep(microseconds)
                _ = try? connection.run("PRAGMA wal_checkpoint(PASSIVE)")
            }
            stopped.store(true, ordering: .releasing)
        }
    }

    /// Returns once the thread has finished its last checkpoint (at most one interval).
    func stop() {
        stopping.store(true, ordering: .releasing)
        for _ in 0..<5_000 where !stopped.load(ordering: .acquiring) { usleep(1_000) }
    }
}
