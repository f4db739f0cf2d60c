/// The SQL of the mail outbox (migrations/0006).
enum OutboxStore {
    /// Queues `message` in the caller's transaction, due at once.
    static func enqueue(_ message: MailMessage, now: Int64, on db: StoreConnection) throws {
        try db.run(
            """
            INSERT INTO mail_outbox (recipient, subject, text_body, html_body, created_at, next_attempt_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            message.recipient, message.subject, message.text, message.html, now, now
        )
    }

    /// Undelivered messages due by `now`, oldest first.
    static func due(now: Int64, limit: Int, on db: StoreConnection) throws -> [(id: Int64, attempts: Int, createdAt: Int64, message: MailMessage)] {
        try db.query(
            """
            SELECT id, attempts, created_at, recipient, subject, text_body, html_body FROM mail_outbox
            WHERE sent_at IS NULL AND abandoned_at IS NULL AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?
            """,
            now, limit
        ) { row in
            (row.int64(at: 0), row.int(at: 1), row.int64(at: 2), MailMessage(
                recipient: row.text(at: 3) ?? "", subject: row.text(at: 4) ?? "", text: row.text(at: 5) ?? "", html: row.text(at: 6) ?? ""
            ))
        }
    }

    static func markSent(_ id: Int64, now: Int64, on db: StoreConnection) throws {
        try db.run("UPDATE mail_outbox SET sent_at = ?, attempts = attempts + 1, last_error = NULL WHERE id = ?", now, id)
    }

    static func markFailed(_ id: Int64, retryAt: Int64, error: String, on db: StoreConnection) throws {
        try db.run(
            "UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE id = ?", retryAt, error, id
        )
    }

    static func markAbandoned(_ id: Int64, now: Int64, error: String, on db: StoreConnection) throws {
        try db.run("UPDATE mail_outbox SET attempts = attempts + 1, abandoned_at = ?, last_error = ? WHERE id = ?", now, error, id)
    }

    static func backlog(on db: StoreConnection) throws -> Int {
        try db.queryOne("SELECT count(*) FROM mail_outbox WHERE sent_at IS NULL AND abandoned_at IS NULL") { $0.int(at: 0) } ?? 0
    }
}
