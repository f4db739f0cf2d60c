import Dispatch
import Synchronization

/// Where what an account event ended goes once committed, on every instance: this
/// process's own events straight after their commit (`AccountEvents.published`), other
/// processes' through the feed `Database.hearAccountEvents` starts (SQLite: the table's
/// tail, `SQLiteAccountEventTail`; PostgreSQL: NOTIFY). Presence streams subscribe here;
/// so may any in-process cache.
public final class AccountEventBus: Sendable {
    /// This process among those that write to the database; its own events come back
    /// through the feed and are skipped there.
    let origin = RandomID.make()
    private let receivers = Mutex<[@Sendable (EndedAccess) async -> Void]>([])
    private let feedWatchers = Mutex<[(lost: @Sendable () -> Void, restored: @Sendable () -> Void)]>([])

    public init() {}

    func subscribe(_ receive: @escaping @Sendable (EndedAccess) async -> Void) {
        receivers.withLock { $0.append(receive) }
    }

    /// `lost` when the feed of other processes' events breaks (events may go unheard from
    /// then on), `restored` once it hears again; for what must not outlive a missed event.
    func watchFeed(lost: @escaping @Sendable () -> Void, restored: @escaping @Sendable () -> Void) {
        feedWatchers.withLock { $0.append((lost, restored)) }
    }

    /// The feed's connection broke.
    func feedLost() {
        for watcher in feedWatchers.withLock({ $0 }) { watcher.lost() }
    }

    /// The feed hears again (what was sent in between is gone).
    func feedRestored() {
        for watcher in feedWatchers.withLock({ $0 }) { watcher.restored() }
    }

    /// Returns once every receiver has acted (a stream closed, its user's offline committed).
    func deliver(_ ended: EndedAccess) async {
        for receive in receivers.withLock({ $0 }) { await receive(ended) }
    }

    /// A line from the feed (on the feed's own thread, which waits, so events act in the
    /// order they came): another process's event, unless it is this one's own.
    func hear(origin sender: Substring, payload: Substring) {
        guard !sender.utf8.elementsEqual(origin.utf8), let ended = EndedAccess(payload: payload) else { return }
        let done = DispatchSemaphore(value: 0)
        Task {
            await deliver(ended)
            done.signal()
        }
        done.wait()
    }
}
