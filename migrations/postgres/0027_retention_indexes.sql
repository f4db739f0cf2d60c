-- See migrations/0027 for SQLite: old sessions and old mail are found by when they were
-- made, a batch at a time.
CREATE INDEX sessions_by_creation ON sessions (created_at);
CREATE INDEX mail_outbox_by_creation ON mail_outbox (created_at);
