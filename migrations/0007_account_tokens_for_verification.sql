-- Account tokens also verify email addresses and confirm an email change (to new_email,
-- ending every session but the one that asked, asking_session): the purpose check
-- widens, so the table is rebuilt.
CREATE TABLE account_tokens_rebuilt (
    token_hash  BLOB PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    purpose     TEXT NOT NULL CHECK (purpose IN ('reset', 'verify', 'email_change')),
    new_email   TEXT,
    asking_session TEXT,
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    used_at     INTEGER
);
INSERT INTO account_tokens_rebuilt (token_hash, user_id, purpose, created_at, expires_at, used_at)
    SELECT token_hash, user_id, purpose, created_at, expires_at, used_at FROM account_tokens;
DROP TABLE account_tokens;
ALTER TABLE account_tokens_rebuilt RENAME TO account_tokens;
CREATE INDEX account_tokens_by_user ON account_tokens (user_id, purpose);
