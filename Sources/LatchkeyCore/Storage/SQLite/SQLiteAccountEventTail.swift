import Glibc
import Synchronization
import Threads

/// SQLite's account-event feed: the other processes on the file (an admin command beside
/// the server) write their events to `account_events`; this thread reads the new rows every
/// `interval` and hands them to the bus in order, so a `latchkey users disable` takes
/// effect on the running server within that interval.
final class SQLiteAccountEventTail: Sendable {
    static let interval: useconds_t = 100_000
    /// Rows read a pass; the rest wait for the next.
    static let batch = 500

    private let stopping = Atomic<Bool>(false)

    init(reader: StoreReader, bus: AccountEventBus) throws {
        let start = try reader.read { try AccountEventStore.lastEventID(on: $0) }
        DedicatedThread.start(named: "account-events") { [self] in
            var last = start
            // Bounded by stop(): each pass sleeps, then reads at most `batch` rows.
            while !stopping.load(ordering: .acquiring) {
                usleep(Self.interval)
                guard let events = try? reader.read({ try AccountEventStore.events(after: last, limit: Self.batch, on: $0) }) else { continue }
                for event in events {
                    last = event.id
                    bus.hear(origin: Substring(event.origin), payload: Substring(event.payload))
                }
            }
        }
    }

    func stop() {
        stopping.store(true, ordering: .releasing)
    }
}
