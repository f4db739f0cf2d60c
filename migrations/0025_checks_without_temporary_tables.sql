-- A CHECK written as `column IN (three or more values)` made SQLite build a temporary
-- B-tree of the values (OpenEphemeral) for every row written, and free it after: on the
-- writer, at every sign-in (its presence) and every mail link (its account token), an
-- allocation large enough that the allocator handed the memory back to the kernel and
-- faulted it in again each time. The same checks, written as comparisons joined by OR,
-- cost nothing of the kind. SQLite cannot change a CHECK in place, so both tables are
-- rebuilt with their rows; the indexes go with them and are made again.
CREATE TABLE presence_rebuilt (
    user_id           TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    status            TEXT NOT NULL CHECK (status = 'online' OR status = 'away' OR status = 'offline'),
    last_seen         INTEGER NOT NULL
);
INSERT INTO presence_rebuilt (user_id, status, last_seen) SELECT user_id, status, last_seen FROM presence;
DROP TABLE presence;
ALTER TABLE presence_rebuilt RENAME TO presence;

CREATE TABLE account_tokens_rebuilt (
    token_hash  BLOB PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    purpose     TEXT NOT NULL CHECK (purpose = 'reset' OR purpose = 'verify' OR purpose = 'email_change'),
    new_email   TEXT,
    asking_session TEXT,
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    used_at     INTEGER
);
INSERT INTO account_tokens_rebuilt (token_hash, user_id, purpose, new_email, asking_session, created_at, expires_at, used_at)
    SELECT token_hash, user_id, purpose, new_email, asking_session, created_at, expires_at, used_at FROM account_tokens;
DROP TABLE account_tokens;
ALTER TABLE account_tokens_rebuilt RENAME TO account_tokens;
CREATE INDEX account_tokens_by_user ON account_tokens (user_id, purpose);
