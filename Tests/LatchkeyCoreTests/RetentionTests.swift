@testable import LatchkeyCore
import SQLValues
import Testing

/// What `Retention` deletes and what it keeps, on both databases, with the clock given.
@Suite struct RetentionTests {
    static let now: Int64 = 2_000_000_000
    static let day: Int64 = 86_400
    static let policy = AccountsPolicy(issuer: "https://issuer.test", reservedDisplayNames: ReservedDisplayNames([]))

    static func retention(_ database: Database) -> Retention {
        Retention(database: database, policy: policy, recordDays: 30)
    }

    /// More old entries than two pruning writes take: every one of them goes, and nothing
    /// inside the retention is touched.
    @Test(arguments: StoreBackend.allCases)
    func auditEntriesOlderThanTheRetentionAllGoInBatchesAndRecentOnesStay(_ backend: StoreBackend) async throws {
        let scratch = try ScratchDatabase(backend)
        defer { scratch.close() }
        let old = Retention.batch * 2 + 123
        try await scratch.database.write { db in
            for index in 0..<old {
                try AuditStore.append(.login, user: "old-\(index)", now: Self.now - 31 * Self.day - Int64(index), on: db)
            }
            for index in 0..<3 {
                try AuditStore.append(.login, user: "recent-\(index)", now: Self.now - 29 * Self.day, on: db)
            }
        }
        let pruned = try await Self.retention(scratch.database).prune(now: Self.now)
        #expect(pruned == Retention.Pruned(auditEntries: old))
        let left = try scratch.database.read { db in try AuditStore.entries(user: nil, since: 0, limit: 100, on: db) }
        #expect(left.map(\.userID) == ["recent-0", "recent-1", "recent-2"])
    }

    /// Old mail goes once it was sent or given up; mail still waiting to go out stays,
    /// however old.
    @Test(arguments: StoreBackend.allCases)
    func oldMailGoesOnceSentOrGivenUpAndWaitingMailStays(_ backend: StoreBackend) async throws {
        let scratch = try ScratchDatabase(backend)
        defer { scratch.close() }
        let old = Self.now - 31 * Self.day
        try await scratch.database.write { db in
            for (recipient, at) in [("old-sent", old), ("old-abandoned", old), ("old-waiting", old), ("recent-sent", Self.now - Self.day)] {
                try OutboxStore.enqueue(SealedMail(recipient: recipient, subject: "s", body: [1]), now: at, on: db)
            }
            try db.run("UPDATE mail_outbox SET sent_at = created_at + 1 WHERE recipient IN ('old-sent', 'recent-sent')")
            try db.run("UPDATE mail_outbox SET abandoned_at = created_at + 1 WHERE recipient = 'old-abandoned'")
        }
        let pruned = try await Self.retention(scratch.database).prune(now: Self.now)
        #expect(pruned == Retention.Pruned(mailEnvelopes: 2))
        let left = try scratch.database.read { db in
            try db.query("SELECT recipient FROM mail_outbox ORDER BY recipient") { $0.text(at: 0) ?? "" }
        }
        #expect(left == ["old-waiting", "recent-sent"])
    }

    /// A session goes 30 days after its maximum lifetime ended it; one still inside that
    /// (revoked or not) stays.
    @Test(arguments: StoreBackend.allCases)
    func sessionsGoThirtyDaysAfterTheirLifetimeEnded(_ backend: StoreBackend) async throws {
        let scratch = try ScratchDatabase(backend)
        defer { scratch.close() }
        let lifetime = Self.policy.sessionMaxLifetime
        try await scratch.database.write { db in
            try AccountStore.insertProviderUser(id: "u1", email: nil, emailVerified: false, now: Self.now - lifetime - 40 * Self.day, on: db)
            for (id, began) in [
                ("ended-long-ago", Self.now - lifetime - 31 * Self.day), ("ended-lately", Self.now - lifetime - 29 * Self.day),
                ("revoked-lately", Self.now - Self.day), ("live", Self.now - Self.day),
            ] {
                try SessionStore.create(id: id, userID: "u1", userAgent: nil, methods: .password, now: began, on: db)
            }
            try SessionStore.revoke("revoked-lately", now: Self.now, on: db)
        }
        let pruned = try await Self.retention(scratch.database).prune(now: Self.now)
        #expect(pruned == Retention.Pruned(sessions: 1))
        let left = try scratch.database.read { db in try db.query("SELECT id FROM sessions ORDER BY id") { $0.text(at: 0) ?? "" } }
        #expect(left == ["ended-lately", "live", "revoked-lately"])
    }

    /// A mailed link goes a day after it expired, used or not; live ones and ones expired
    /// within the day stay.
    @Test(arguments: StoreBackend.allCases)
    func mailedLinksGoADayAfterTheyExpired(_ backend: StoreBackend) async throws {
        let scratch = try ScratchDatabase(backend)
        defer { scratch.close() }
        try await scratch.database.write { db in
            try AccountStore.insertProviderUser(id: "u1", email: nil, emailVerified: false, now: Self.now - 10 * Self.day, on: db)
            for (byte, made) in [(1, Self.now - 3 * Self.day), (2, Self.now - 3 * Self.day), (3, Self.now - Self.day), (4, Self.now)] as [(UInt8, Int64)] {
                try AccountTokenStore.insert(hash: [UInt8](repeating: byte, count: 32), userID: "u1", purpose: "reset", now: made, lifetime: 3600, on: db)
            }
            try db.run("UPDATE account_tokens SET used_at = created_at + 1 WHERE expires_at < ?", Self.now - 2 * Self.day)
        }
        let pruned = try await Self.retention(scratch.database).prune(now: Self.now)
        #expect(pruned == Retention.Pruned(mailedLinks: 2))
        let left = try scratch.database.read { db in
            try db.query("SELECT token_hash FROM account_tokens ORDER BY created_at") { $0.blob(at: 0)?.first ?? 0 }
        }
        #expect(left == [3, 4])
    }
}

/// Each batch finds its oldest rows through an index (migrations/0009 and 0027) rather than
/// reading a table that may hold a year of rows; mailed links are the exception, their table
/// kept to a day's worth by this pruning, and on PostgreSQL sessions (no writer waits there).
@Suite struct RetentionStatementPlansTests {
    @Test func sqliteFindsEachBatchThroughAnIndex() throws {
        try QueryPlans.sqlite { plan throws in
            let bounds: [SQLValue] = [.integer(1), .integer(10)]
            #expect(try plan(RetentionStore.auditEntries, bounds).contains("SEARCH audit_log USING COVERING INDEX audit_log_by_time (at<?)"))
            #expect(try plan(RetentionStore.mailEnvelopes, bounds).contains("SEARCH mail_outbox USING INDEX mail_outbox_by_creation (created_at<?)"))
            #expect(try plan(RetentionStore.sessions, bounds).contains("SEARCH sessions USING INDEX sessions_by_creation (created_at<?)"))
        }
    }

    @Test func postgresqlFindsEachBatchThroughAnIndex() throws {
        try QueryPlans.postgres { plan throws in
            // Sessions are read whole there (see migrations/postgres/0027).
            for (statement, index) in [(RetentionStore.auditEntries, "audit_log_by_time"), (RetentionStore.mailEnvelopes, "mail_outbox_by_creation")] {
                let lines = try plan(statement, [.integer(1), .integer(10)])
                #expect(lines.contains { $0.contains(index) }, "\(lines)")
                #expect(!lines.contains { $0.contains("Seq Scan") }, "\(lines)")
            }
        }
    }
}
