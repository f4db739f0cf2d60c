import FlatJSON
import Synchronization

/// The sessions the bearer check found active, with their users, kept on this instance so
/// an authenticated request in the steady state reads nothing from the store.
///
/// An entry goes when an account event names its user (`AccountEventBus`): on the instance
/// that made the change before its answer is sent, on the others when the feed brings it
/// (PostgreSQL's NOTIFY, milliseconds; SQLite's tail of the admin commands, its 100 ms
/// poll). While the feed is down an event may be missed, so nothing is trusted until it is
/// back, and the cache starts again empty (`suspend`, `resume`).
///
/// Time is not cached: a hit is checked against the idle timeout and the lifetime as a read
/// would be. The copy's `lastUsedAt` may be older than the row's (a refresh uses the
/// session), so a session the copy calls idle is read again, never refused from the copy.
///
/// Sharded by user, each shard behind its own lock, so event loops seldom meet. A full
/// shard lets go of whichever user comes first (cheaper than LRU bookkeeping on every hit;
/// one read brings a session back).
public final class SessionCache: Sendable {
    /// Taken before the store read whose result `store` keeps: if the user's shard dropped
    /// anything meanwhile, the read may predate the change that dropped it, and is not kept.
    public struct Ticket: Sendable {
        fileprivate let shard: Int
        fileprivate let generation: UInt64
    }

    /// What the check needs of a session: its id and times (a user agent can be long).
    private struct HeldSession {
        let id: ExactBytes
        let createdAt: Int64
        let lastUsedAt: Int64
        let methods: SignInMethods
    }

    /// A user and their sessions held: a few at most, so a list, smaller than a dictionary.
    private struct Entry {
        var user: User
        /// What the API made of this version of `user`: begun by the first `find`, so a
        /// user only ever read for other requests costs nothing here; gone with a changed user.
        var memo: UserMemo?
        var sessions: [HeldSession]
    }

    private struct Shard {
        var users: [ExactBytes: Entry] = [:]
        var sessionCount = 0
        /// Advanced by every drop.
        var generation: UInt64 = 0

        mutating func removeAll() {
            users.removeAll()
            sessionCount = 0
            generation &+= 1
        }
    }

    /// A class, so an array can hold the non-copyable `Mutex`.
    private final class LockedShard: Sendable {
        let state = Mutex(Shard())
    }

    /// The sessions an instance keeps unless told otherwise.
    public static let defaultCapacity = 100_000
    private static let shardCount = 64
    private static let sessionsPerUser = 16
    private let shards: [LockedShard]
    private let sessionsPerShard: Int
    private let suspended = Atomic<Bool>(false)

    /// About `capacity` sessions (with their users), at most a quarter more: users fall on
    /// shards unevenly, so each takes a quarter more than an even share, and a full shard
    /// lets go of a user to take the next. 0 keeps nothing.
    public init(capacity: Int) {
        shards = (0..<Self.shardCount).map { _ in LockedShard() }
        sessionsPerShard = capacity / Self.shardCount * 5 / 4
    }

    /// The session `sessionID` of `userID` with its user and the user's memo, if held.
    func find(userID: String, sessionID: String) -> (session: Session, user: User, memo: UserMemo)? {
        guard sessionsPerShard > 0, !suspended.load(ordering: .acquiring) else { return nil }
        let user = ExactBytes(userID)
        let id = ExactBytes(sessionID)
        return shards[shardIndex(user)].state.withLock { shard in
            guard let entry = shard.users[user], let held = entry.sessions.first(where: { $0.id == id }) else { return nil }
            let session = Session(
                id: sessionID, userID: userID, userAgent: nil, createdAt: held.createdAt, lastUsedAt: held.lastUsedAt, revokedAt: nil,
                methods: held.methods
            )
            if let memo = entry.memo { return (session, entry.user, memo) }
            let memo = UserMemo()
            shard.users[user]?.memo = memo
            return (session, entry.user, memo)
        }
    }

    /// Before a read of `userID`'s session; nil when nothing read now may be kept.
    func ticket(for userID: String) -> Ticket? {
        guard sessionsPerShard > 0, !suspended.load(ordering: .acquiring) else { return nil }
        let index = shardIndex(ExactBytes(userID))
        return Ticket(shard: index, generation: shards[index].state.withLock { $0.generation })
    }

    /// Keeps an active session and its user, read after `ticket` was taken.
    func store(_ session: Session, of user: User, ticket: Ticket?) {
        guard let ticket, session.revokedAt == nil, session.userID.utf8.elementsEqual(user.id.utf8) else { return }
        let key = ExactBytes(user.id)
        let held = HeldSession(
            id: ExactBytes(session.id), createdAt: session.createdAt, lastUsedAt: session.lastUsedAt, methods: session.methods)
        shards[ticket.shard].state.withLock { shard in
            guard shard.generation == ticket.generation else { return }
            var entry = shard.users.removeValue(forKey: key) ?? Entry(user: user, memo: nil, sessions: [])
            shard.sessionCount -= entry.sessions.count
            if entry.user != user {
                // What was made from the copy held until now describes an older user.
                entry.user = user
                entry.memo = nil
            }
            entry.sessions.removeAll { $0.id == held.id }
            // A user's sessions are bounded as the shard is: the newest kept.
            entry.sessions = entry.sessions.suffix(min(Self.sessionsPerUser, sessionsPerShard) - 1) + [held]
            while shard.sessionCount + entry.sessions.count > sessionsPerShard, let evicted = shard.users.first {
                shard.users.removeValue(forKey: evicted.key)
                shard.sessionCount -= evicted.value.sessions.count
            }
            shard.sessionCount += entry.sessions.count
            shard.users[key] = entry
        }
    }

    /// Forgets `userID` and every session of theirs held: an account event named them.
    func drop(userID: String) {
        let user = ExactBytes(userID)
        shards[shardIndex(user)].state.withLock { shard in
            if let gone = shard.users.removeValue(forKey: user) { shard.sessionCount -= gone.sessions.count }
            shard.generation &+= 1
        }
    }

    /// The feed of other instances' events is down: hold nothing, keep nothing.
    func suspend() {
        suspended.store(true, ordering: .releasing)
        removeAll()
    }

    /// The feed is back: start empty, since events sent meanwhile were not heard.
    func resume() {
        removeAll()
        suspended.store(false, ordering: .releasing)
    }

    /// Sessions held, for the tests.
    var count: Int {
        shards.reduce(0) { total, shard in total + shard.state.withLock { $0.sessionCount } }
    }

    private func removeAll() {
        for shard in shards { shard.state.withLock { $0.removeAll() } }
    }

    private func shardIndex(_ user: ExactBytes) -> Int {
        Int(UInt(bitPattern: user.hashValue) % UInt(Self.shardCount))
    }
}
