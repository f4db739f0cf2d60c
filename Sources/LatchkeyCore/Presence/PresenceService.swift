/// Online, away or offline, as the user last said.
public enum PresenceStatus: String, Sendable, CaseIterable {
    case online, away, offline
}

/// A user's presence as others see it.
public struct Presence: Sendable, Equatable {
    public let userID: String
    public let status: PresenceStatus
    /// Unix seconds of the last update.
    public let lastSeen: Int64
}

/// `/userPresence` of the apps Latchkey serves: each user sets their own status; anyone
/// signed in reads it, or watches it through a stream. A user holding a stream open is
/// online until the last one closes (see `PresenceStreams`). A user who said "online" or
/// "away", holds no stream and went silent for longer than the presence timeout reads as
/// offline, with the `lastSeen` of that last update.
public struct PresenceService: Sendable {
    let database: Database
    let policy: AccountsPolicy
    /// Where changes go once committed, for the streams that watch them.
    public let bus: any PresenceBus
    public let streams: PresenceStreams

    init(database: Database, policy: AccountsPolicy, bus: any PresenceBus) {
        self.database = database
        self.policy = policy
        self.bus = bus
        streams = PresenceStreams(database: database, bus: bus, policy: policy)
    }

    /// At most this many ids in one batch read.
    public static let maximumBatch = 100

    public func set(_ status: PresenceStatus, for caller: Authenticated) async throws -> Presence {
        let userID = caller.userID
        let presence = try await database.write { db in
            let now = UnixTime.now()
            guard try AccountStore.user(id: userID, on: db) != nil else { throw AccessError.sessionRevoked }
            try AccountStore.setPresence(status.rawValue, for: userID, now: now, on: db)
            return Presence(userID: userID, status: status, lastSeen: now)
        }
        bus.publish(presence)  // committed: watchers never see a change that could roll back
        return presence
    }

    /// Opens `caller`'s stream watching `userIDs` (at most `maximumBatch`): `watcher` gets
    /// the presence of each known id, then every change, until `streams.closed(id)`. The
    /// subscription comes before the snapshot, so a change in between is seen (perhaps
    /// twice), never missed. Nil when the server is stopping.
    public func openStream(_ watcher: any PresenceWatcher, for caller: Authenticated, watching userIDs: [String], reader: StoreReader) throws -> UInt64? {
        guard let id = streams.register(watcher, for: caller, watching: Array(userIDs.prefix(Self.maximumBatch))) else { return nil }
        do {
            for presence in try get(userIDs, reader: reader) { watcher.deliver(presence) }
        } catch {
            streams.closed(id)
            throw error
        }
        return id
    }

    /// The presence of `userID`; `AccountError.userNotFound` for an unknown user.
    public func get(_ userID: String, reader: StoreReader) throws -> Presence {
        guard let presence = try get([userID], reader: reader).first else { throw AccountError.userNotFound }
        return presence
    }

    /// The presences of the known ids among `userIDs`, in their order; unknown ids are left out.
    public func get(_ userIDs: [String], reader: StoreReader) throws -> [Presence] {
        let now = UnixTime.now()
        return try reader.read { db in
            try userIDs.prefix(Self.maximumBatch).filter(RequestedIdentifier.canExist).compactMap { id in
                try PresenceStore.presence(of: id, on: db).map { shown($0.presence, held: $0.held, now: now) }
            }
        }
    }

    /// Silence past the timeout reads as offline, unless a stream holds the user, here or
    /// on another instance.
    private func shown(_ stored: Presence, held: Bool, now: Int64) -> Presence {
        guard stored.status != .offline, now - stored.lastSeen > policy.presenceTimeout, !held, !streams.isHeld(stored.userID) else { return stored }
        return Presence(userID: stored.userID, status: .offline, lastSeen: stored.lastSeen)
    }
}

/// The SQL of presence reads (writes go through `AccountStore.setPresence`).
enum PresenceStore {
    /// The stored presence, and whether a stream holds the user on any instance.
    static func presence(of userID: String, on db: StoreConnection) throws -> (presence: Presence, held: Bool)? {
        try db.queryOne(
            "SELECT status, last_seen, EXISTS (SELECT 1 FROM presence_holds WHERE user_id = ?) FROM presence WHERE user_id = ?", userID, userID
        ) { row in
            (Presence(userID: userID, status: PresenceStatus(rawValue: row.text(at: 0) ?? "") ?? .offline, lastSeen: row.int64(at: 1)), row.bool(at: 2))
        }
    }
}
