import Synchronization

/// What a presence stream does with what the registry sends it; the HTTP layer turns
/// these into server-sent events.
public protocol PresenceWatcher: AnyObject, Sendable {
    /// A presence of a watched user: the snapshot first, then every change.
    func deliver(_ presence: Presence)
    /// A sign of life on a quiet stream, so proxies and clients keep it open.
    func keepAlive()
    /// The session ended or the server is stopping: end the stream.
    func end()
}

/// The presence streams open on this instance, by user and by session. A user holding at
/// least one here or on another instance (a row in `presence_holds`) is online; when the
/// last one anywhere closes (or its session ends) the user goes offline with `lastSeen`
/// set to that moment. The write of each such transition is queued to the database writer
/// while the registry's lock is held, with the user as its ordering key, so transitions of
/// one user commit in the order they happened (on PostgreSQL too, whose writers run side
/// by side), and is published on the bus once committed. Each instance beats every sweep;
/// one silent for longer than the presence timeout is dead, and the others release its
/// holds.
///
/// The registry holds one bus subscription per watched user, not one per stream: a change
/// of a user ten thousand streams watch is one call from the bus, handed to the fan-out
/// with all of them at once.
public final class PresenceStreams: Sendable {
    private struct Stream {
        let userID: String
        let sessionID: String
        let watcher: any PresenceWatcher
        /// The users it watches, each once.
        let watched: [String]
    }

    /// The streams watching one user, and the bus subscription that brings its changes.
    private struct Watched {
        let subscription: PresenceSubscription
        var watchers: [UInt64: any PresenceWatcher] = [:]
    }

    private struct State {
        var nextID: UInt64 = 0
        var streams: [UInt64: Stream] = [:]
        var byUser: [String: Set<UInt64>] = [:]
        var bySession: [String: Set<UInt64>] = [:]
        var watching: [String: Watched] = [:]
        var fanOut: any PresenceFanOut = EachWatcherInTurn()
        var stopped = false
    }

    private let state = Mutex(State())
    /// This process among the instances over one database (a fresh one every start).
    let instanceID = RandomID.make()
    private let database: Database
    private let bus: any PresenceBus
    private let policy: AccountsPolicy

    init(database: Database, bus: any PresenceBus, policy: AccountsPolicy) {
        self.database = database
        self.bus = bus
        self.policy = policy
    }

    /// Whether `userID` holds a stream here (such a user is never timed out).
    public func isHeld(_ userID: String) -> Bool {
        state.withLock { $0.byUser[userID] != nil }
    }

    public var openStreams: Int { state.withLock { $0.streams.count } }

    /// Users watched by at least one stream here: each costs one bus subscription.
    public var watchedUsers: Int { state.withLock { $0.watching.count } }

    /// From now on changes and keep-alives reach the streams through `fanOut` (the HTTP
    /// layer's, which writes one encoded event to many sockets at once).
    public func deliverChanges(through fanOut: any PresenceFanOut) {
        state.withLock { $0.fanOut = fanOut }
    }

    /// Registers the stream of `caller`'s session watching `userIDs`; nil once the server
    /// is stopping. Changes reach `watcher` from the moment this returns.
    /// A ninth stream of one session closes that session's oldest (`maximumPerSession`).
    func register(_ watcher: any PresenceWatcher, for caller: Authenticated, watching userIDs: [String]) -> UInt64? {
        let watched = Array(Set(userIDs))
        let (id, displaced) = state.withLock { state -> (UInt64?, [Stream]) in
            guard !state.stopped else { return (nil, []) }
            state.nextID += 1
            state.streams[state.nextID] = Stream(userID: caller.userID, sessionID: caller.sessionID, watcher: watcher, watched: watched)
            for userID in watched { watch(userID, by: state.nextID, watcher, in: &state) }
            state.bySession[caller.sessionID, default: []].insert(state.nextID)
            let first = state.byUser[caller.userID] == nil
            state.byUser[caller.userID, default: []].insert(state.nextID)
            if first { queueTransition(of: caller.userID, to: .online) }
            let ofSession = state.bySession[caller.sessionID] ?? []
            guard ofSession.count > Self.maximumPerSession, let oldest = ofSession.min() else { return (state.nextID, []) }
            return (state.nextID, remove([oldest], from: &state).ended)
        }
        finish(displaced)
        return id
    }

    /// The first stream watching `userID` subscribes to the bus for it. Under the lock, so
    /// a change published once this returns is seen: the bus's lock is taken inside ours,
    /// never the other way round (the bus calls its subscribers with its lock released).
    private func watch(_ userID: String, by id: UInt64, _ watcher: any PresenceWatcher, in state: inout State) {
        if state.watching[userID] == nil {
            state.watching[userID] = Watched(subscription: bus.subscribe(to: [userID]) { [weak self] in self?.fanOut($0) })
        }
        state.watching[userID]?.watchers[id] = watcher
    }

    /// A change of a watched user: every stream watching it, in one call to the fan-out.
    private func fanOut(_ presence: Presence) {
        let (watchers, fanOut) = state.withLock { state in
            (state.watching[presence.userID].map { Array($0.watchers.values) } ?? [], state.fanOut)
        }
        if !watchers.isEmpty { fanOut.deliver(presence, to: watchers) }
    }

    /// Streams one session may hold: an app that reconnects without closing leaves no pile.
    static let maximumPerSession = 8

    /// What an account event ended, on this instance: the sessions' streams close, and the
    /// watchers here hear a user who went offline with it (every instance tells its own).
    func accountEventEnded(_ ended: EndedAccess) async {
        if ended.accountDeleted {
            return accountDeleted(ended.userID, at: ended.offlineAt ?? UnixTime.now())
        }
        if let offlineAt = ended.offlineAt {
            bus.deliverLocally(Presence(userID: ended.userID, status: .offline, lastSeen: offlineAt))
        }
        switch ended.sessions {
        case .one(let session): await end(session: session)
        case .allBut(let kept): await end(sessionsOf: ended.userID, keeping: kept)
        case .noSession: break
        }
    }

    /// The stream `id` closed (the client went away, or it was ended).
    public func closed(_ id: UInt64) {
        _ = state.withLock { remove([id], from: &$0) }
    }

    /// Ends the streams of one session (logout, revocation, a reused refresh token) and
    /// returns once the user's resulting presence is committed.
    func end(session sessionID: String) async {
        await end { state in state.bySession[sessionID].map(Array.init) ?? [] }
    }

    /// Ends the streams of every session of `userID` but `kept` (logout everywhere, a new
    /// password, a reset).
    func end(sessionsOf userID: String, keeping kept: String? = nil) async {
        await end { state in
            (state.byUser[userID] ?? []).filter { state.streams[$0]?.sessionID != kept }
        }
    }

    /// An account is gone: its watchers get a last `offline`, its streams end.
    func accountDeleted(_ userID: String, at now: Int64) {
        bus.deliverLocally(Presence(userID: userID, status: .offline, lastSeen: now))
        // No transition to write: the presence row went with the account.
        finish(state.withLock { state in remove(Array(state.byUser[userID] ?? []), from: &state, writingOffline: false).ended })
    }

    /// On shutdown: every stream ends, its user goes offline unless held elsewhere, and the
    /// instance leaves; returns once that is committed. Streams opened after this are refused.
    public func stopAll() async {
        await end { state in
            state.stopped = true
            return Array(state.streams.keys)
        }
        let instanceID = instanceID
        _ = try? await database.write { db in try PresenceHoldStore.leave(instanceID, on: db) }
    }

    /// Until `stopAll`: every `sweep`, ends the streams of sessions that ended where no
    /// account event says so (the idle timeout; as a safety net, an event a lost PostgreSQL
    /// connection missed); every `keepAlive`, sends every stream a sign of life.
    public func maintain(sweepEvery sweep: Duration, keepAliveEvery keepAlive: Duration) async {
        var sinceKeepAlive = Duration.zero
        while !state.withLock({ $0.stopped }) {
            try? await Task.sleep(for: sweep)
            await beatAndSweep(deadAfter: max(policy.presenceTimeout, 3 * sweep.components.seconds))
            await endStreamsOfEndedSessions()
            sinceKeepAlive += sweep
            if sinceKeepAlive >= keepAlive {
                sinceKeepAlive = .zero
                let (watchers, fanOut) = state.withLock { ($0.streams.values.map(\.watcher), $0.fanOut) }
                fanOut.keepAlive(watchers)
            }
        }
    }

    /// Says this instance is alive, and takes the holds of instances silent for longer than
    /// `deadAfter` seconds (at least three sweeps, so a live one is never taken): users
    /// left without a hold go offline. If this instance was itself taken for dead (paused
    /// longer than that), it holds its users again.
    func beatAndSweep(deadAfter: Int64) async {
        let instanceID = instanceID
        // An idle server commits nothing: with no stream here and no instance holding
        // any, there is no one to beat for and nothing to sweep.
        if state.withLock({ $0.byUser.isEmpty }), (try? database.read({ try PresenceHoldStore.anyInstance(on: $0) })) == false { return }
        let changes = try? await database.write { [self] db -> [Presence] in
            let now = UnixTime.now()
            var changes: [Presence] = []
            // Read when the job runs, not before it was queued: a stream registers before it
            // queues its hold, so a hold committed before this job is counted here, and
            // leaving (which takes this instance's holds with its row) never drops it.
            let held = state.withLock { Array($0.byUser.keys) }
            if held.isEmpty {
                try PresenceHoldStore.leave(instanceID, on: db)  // nothing of ours to keep alive
            } else if try !PresenceHoldStore.heartbeat(instanceID, now: now, on: db) {
                for userID in held where try AccountStore.user(id: userID, on: db) != nil {
                    try PresenceHoldStore.hold(userID, by: instanceID, now: now, on: db)
                    try AccountStore.setPresence(PresenceStatus.online.rawValue, for: userID, now: now, on: db)
                    changes.append(Presence(userID: userID, status: .online, lastSeen: now))
                }
            }
            for userID in try PresenceHoldStore.sweepDead(silentSince: now - deadAfter, on: db) {
                try AccountStore.setPresence(PresenceStatus.offline.rawValue, for: userID, now: now, on: db)
                changes.append(Presence(userID: userID, status: .offline, lastSeen: now))
            }
            return changes
        }
        for presence in changes ?? [] { bus.publish(presence) }
    }

    /// One read per session holding streams, however many streams it holds.
    func endStreamsOfEndedSessions() async {
        let sessions = state.withLock { Array($0.bySession.keys) }
        guard !sessions.isEmpty else { return }
        let now = UnixTime.now()
        let ended = (try? database.read { db in
            try sessions.filter { id in
                guard let (session, user) = try SessionStore.sessionWithUser(id: id, on: db) else { return true }
                return !session.isActive(now: now, policy: policy) || user.disabled
            }
        }) ?? []
        for session in ended { await end(session: session) }
    }

    private func end(selecting select: (inout State) -> [UInt64]) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let removed = state.withLock { state in remove(select(&state), from: &state, then: { continuation.resume() }) }
            finish(removed.ended)
            if !removed.wentOffline { continuation.resume() }
        }
    }

    private func finish(_ ended: [Stream]) {
        for stream in ended { stream.watcher.end() }
    }

    /// Takes the streams `ids` out; a user left without any goes offline (unless
    /// `writingOffline` is false). `committed` runs after the last such transition commits;
    /// `wentOffline` says whether there was one.
    private func remove(
        _ ids: [UInt64], from state: inout State, writingOffline: Bool = true, then committed: (@Sendable () -> Void)? = nil
    ) -> (ended: [Stream], wentOffline: Bool) {
        var ended: [Stream] = []
        var offline: [String] = []
        for id in ids {
            guard let stream = state.streams.removeValue(forKey: id) else { continue }
            ended.append(stream)
            state.bySession[stream.sessionID]?.remove(id)
            if state.bySession[stream.sessionID]?.isEmpty == true { state.bySession[stream.sessionID] = nil }
            for userID in stream.watched {
                state.watching[userID]?.watchers[id] = nil
                if let watched = state.watching[userID], watched.watchers.isEmpty {
                    watched.subscription.cancel()  // the bus's lock inside ours, as in `watch`
                    state.watching[userID] = nil
                }
            }
            state.byUser[stream.userID]?.remove(id)
            if state.byUser[stream.userID]?.isEmpty == true {
                state.byUser[stream.userID] = nil
                if writingOffline { offline.append(stream.userID) }
            }
        }
        for (index, userID) in offline.enumerated() {
            queueTransition(of: userID, to: .offline, committed: index == offline.count - 1 ? committed : nil)
        }
        return (ended, !offline.isEmpty)
    }

    /// Queues the write of a stream transition (call with the lock held, see the type's
    /// comment) and publishes it once committed: the hold of this instance taken or
    /// released with it. A user still held by another instance stays online, and nothing
    /// is published.
    private func queueTransition(of userID: String, to status: PresenceStatus, committed: (@Sendable () -> Void)? = nil) {
        let (bus, instanceID) = (bus, instanceID)
        database.submitWrite({ db -> Presence? in
            let now = UnixTime.now()
            // Deleted by another process (`latchkey users delete`): no row to write, but its
            // watchers still get a last offline.
            guard try AccountStore.user(id: userID, on: db) != nil else { return Presence(userID: userID, status: .offline, lastSeen: now) }
            if status == .offline {
                if try PresenceHoldStore.release(userID, by: instanceID, on: db) { return nil }
            } else {
                try PresenceHoldStore.hold(userID, by: instanceID, now: now, on: db)
            }
            try AccountStore.setPresence(status.rawValue, for: userID, now: now, on: db)
            return Presence(userID: userID, status: status, lastSeen: now)
        }, orderingKey: userID, completion: { result in
            if case .success(let presence?) = result { bus.publish(presence) }
            committed?()
        })
    }
}
