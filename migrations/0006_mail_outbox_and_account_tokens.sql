-- The durable mail outbox: a message is written in the same transaction as whatever it
-- announces (a reset token, a notice), and a background sender delivers it with retries.
-- sent_at set means delivered: it is never sent again.
CREATE TABLE mail_outbox (
    id               INTEGER PRIMARY KEY,
    recipient        TEXT NOT NULL,
    subject          TEXT NOT NULL,
    text_body        TEXT NOT NULL,
    html_body        TEXT NOT NULL,
    created_at       INTEGER NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    next_attempt_at  INTEGER NOT NULL,
    sent_at          INTEGER,
    last_error       TEXT
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL;

-- Single-use tokens mailed to an account (password reset today), stored only as their
-- SHA-256. used_at set, or expires_at passed, means the token no longer works.
CREATE TABLE account_tokens (
    token_hash  BLOB PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    purpose     TEXT NOT NULL CHECK (purpose IN ('reset')),
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    used_at     INTEGER
);
CREATE INDEX account_tokens_by_user ON account_tokens (user_id, purpose);
