/// The SQL of `Retention`. Each statement deletes at most a batch of rows older than a
/// cutoff, the oldest first, found through an index on the time it compares (migrations
/// 0009 and 0027); mailed links, in a table this pruning keeps to a day's worth, and
/// sessions on PostgreSQL (migrations/postgres/0027 says why) are read whole.
enum RetentionStore {
    /// Audit entries written before the cutoff.
    static let auditEntries = "DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE at < ? ORDER BY at LIMIT ?)"
    /// Mail queued before the cutoff and sent or given up: what is left of it is its
    /// envelope. Mail still waiting is never deleted here.
    static let mailEnvelopes = """
        DELETE FROM mail_outbox WHERE id IN (
            SELECT id FROM mail_outbox WHERE created_at < ? AND (sent_at IS NOT NULL OR abandoned_at IS NOT NULL)
            ORDER BY created_at LIMIT ?
        )
        """
    /// Sessions begun before the cutoff.
    static let sessions = "DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE created_at < ? ORDER BY created_at LIMIT ?)"
    /// Mailed links (reset, verification, email change) that expired before the cutoff.
    static let mailedLinks = "DELETE FROM account_tokens WHERE token_hash IN (SELECT token_hash FROM account_tokens WHERE expires_at < ? LIMIT ?)"

    /// Runs one of the statements above; returns how many rows it deleted.
    static func deleteBatch(_ statement: String, before cutoff: Int64, limit: Int, on db: StoreConnection) throws -> Int {
        try db.run(statement, cutoff, limit)
        return db.changes
    }
}
