/// Deletes what only records the past once it is old enough, so no table grows with the
/// server's age: audit entries and the envelopes of sent mail older than the record
/// retention (`auditRetentionDays`), sessions 30 days after their maximum lifetime ended
/// them, mailed links a day after they expired. Revoked and idle sessions stay until then
/// too (finding them would take an index every refresh updates).
///
/// Each kind goes `batch` rows to a write: the writer commits every write in turn, and one
/// DELETE of a year's rows (a first prune, or one after long downtime) would hold every
/// sign-in and refresh behind it. Other writes go between the batches.
public struct Retention: Sendable {
    /// What one prune deleted, by kind.
    public struct Pruned: Sendable, Equatable {
        public var auditEntries = 0
        public var mailEnvelopes = 0
        public var sessions = 0
        public var mailedLinks = 0

        public var total: Int { auditEntries + mailEnvelopes + sessions + mailedLinks }
    }

    static let batch = 2_000
    /// After a session's maximum lifetime, before its row goes: an operator who shortened
    /// the lifetime by mistake can lengthen it again and lose no session.
    static let sessionGrace: Int64 = 30 * 86_400
    /// After a mailed link expired, before its row goes (the one-mail-a-minute rule reads
    /// only the last minutes').
    static let linkGrace: Int64 = 86_400

    let database: Database
    let sessionMaxLifetime: Int64
    let recordDays: Int

    /// `recordDays`: days audit entries and mail envelopes are kept.
    public init(database: Database, policy: AccountsPolicy, recordDays: Int) {
        self.database = database
        sessionMaxLifetime = policy.sessionMaxLifetime
        self.recordDays = recordDays
    }

    /// Deletes everything old enough at `now`. Each loop ends: its cutoff stays put, rows
    /// made from now on are newer than it, and every batch but the last deletes a full one.
    @discardableResult
    public func prune(now: Int64 = UnixTime.now()) async throws -> Pruned {
        let records = now - Int64(recordDays) * 86_400
        var pruned = Pruned()
        pruned.auditEntries = try await deleteAll(RetentionStore.auditEntries, before: records)
        pruned.mailEnvelopes = try await deleteAll(RetentionStore.mailEnvelopes, before: records)
        pruned.sessions = try await deleteAll(RetentionStore.sessions, before: now - sessionMaxLifetime - Self.sessionGrace)
        pruned.mailedLinks = try await deleteAll(RetentionStore.mailedLinks, before: now - Self.linkGrace)
        return pruned
    }

    private func deleteAll(_ statement: String, before cutoff: Int64) async throws -> Int {
        var total = 0
        while true {
            let deleted = try await database.write { db in
                try RetentionStore.deleteBatch(statement, before: cutoff, limit: Self.batch, on: db)
            }
            total += deleted
            if deleted < Self.batch { return total }
        }
    }
}
