/// The SQL of the mail outbox (migrations/0006, 0008, 0015). A pending message's bodies
/// are sealed (`sealed_body`); once it is delivered or given up, no body is kept.
enum OutboxStore {
    /// A message taken for delivery.
    typealias Claimed = (id: Int64, attempts: Int, createdAt: Int64, body: QueuedBody)

    /// What a claimed row holds for its transport.
    enum QueuedBody {
        case sealed(SealedMail)
        /// Queued in the clear by a version before migrations/0015, still pending then:
        /// delivered once like any other, then cleared.
        case fromBeforeSealing(MailMessage)
        /// No body at all: nothing to deliver.
        case missing
    }

    /// Queues `mail` in the caller's transaction, due at once.
    static func enqueue(_ mail: SealedMail, now: Int64, on db: StoreConnection) throws {
        try db.run(
            "INSERT INTO mail_outbox (recipient, subject, sealed_body, created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?)",
            mail.recipient, mail.subject, mail.body, now, now
        )
    }

    /// Whether anything is due by `now` (a read: most polls find nothing to claim).
    static func anyDue(now: Int64, on db: StoreConnection) throws -> Bool {
        try db.queryOne("SELECT 1 FROM mail_outbox WHERE sent_at IS NULL AND abandoned_at IS NULL AND next_attempt_at <= ? LIMIT 1", now) { _ in true }
            ?? false
    }

    /// Takes up to `limit` undelivered messages due by `now`, oldest first, for one sender:
    /// their next attempt moves to `leaseEnd`, so no other sender (another instance) takes
    /// them meanwhile. The sender's outcome replaces the lease; a sender that dies leaves
    /// them due again when it ends.
    static func claimDue(
        now: Int64, leaseEnd: Int64, limit: Int, on db: StoreConnection
    ) throws -> [Claimed] {
        try db.query(db.dialect == .postgres ? claimOnPostgreSQL : claimOnSQLite, leaseEnd, now, limit) { row in
            let (recipient, subject) = (row.text(at: 3) ?? "", row.text(at: 4) ?? "")
            let body: QueuedBody
            if let sealed = row.blob(at: 5) {
                body = .sealed(SealedMail(recipient: recipient, subject: subject, body: sealed))
            } else if let text = row.text(at: 6) {
                body = .fromBeforeSealing(MailMessage(recipient: recipient, subject: subject, text: text, html: row.text(at: 7) ?? ""))
            } else {
                body = .missing
            }
            return (row.int64(at: 0), row.int(at: 1), row.int64(at: 2), body)
        }.sorted { $0.id < $1.id }
    }

    // Built once each: statements are cached by their text.
    private static let claimOnSQLite = claim(SQLDialect.sqlite)
    private static let claimOnPostgreSQL = claim(SQLDialect.postgres)

    private static func claim(_ dialect: SQLDialect) -> String {
        """
        UPDATE mail_outbox SET next_attempt_at = ? WHERE id IN (
            SELECT id FROM mail_outbox WHERE sent_at IS NULL AND abandoned_at IS NULL AND next_attempt_at <= ?
            ORDER BY next_attempt_at, id LIMIT ?\(dialect.skippingLockedRows)
        ) RETURNING id, attempts, created_at, recipient, subject, sealed_body, text_body, html_body
        """
    }

    /// The body goes with the delivery: the mailbox has it now, and the database must not.
    static func markSent(_ id: Int64, now: Int64, on db: StoreConnection) throws {
        try db.run(
            """
            UPDATE mail_outbox SET sent_at = ?, attempts = attempts + 1, last_error = NULL,
                sealed_body = NULL, text_body = NULL, html_body = NULL
            WHERE id = ?
            """,
            now, id
        )
    }

    static func markFailed(_ id: Int64, retryAt: Int64, error: String, on db: StoreConnection) throws {
        try db.run(
            "UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE id = ?", retryAt, error, id
        )
    }

    /// A message given up keeps its envelope and reason for the operator, not its body.
    static func markAbandoned(_ id: Int64, now: Int64, error: String, on db: StoreConnection) throws {
        try db.run(
            """
            UPDATE mail_outbox SET attempts = attempts + 1, abandoned_at = ?, last_error = ?,
                sealed_body = NULL, text_body = NULL, html_body = NULL
            WHERE id = ?
            """,
            now, error, id
        )
    }

    static func backlog(on db: StoreConnection) throws -> Int {
        try db.queryOne("SELECT count(*) FROM mail_outbox WHERE sent_at IS NULL AND abandoned_at IS NULL") { $0.int(at: 0) } ?? 0
    }
}
