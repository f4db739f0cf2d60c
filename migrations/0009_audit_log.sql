-- The append-only record of what happened to accounts and sessions, for operators
-- (`latchkey audit`). No foreign key: an entry outlives the account it speaks of. Rows
-- older than auditRetentionDays are pruned; nothing else deletes or changes them.
CREATE TABLE audit_log (
    id          INTEGER PRIMARY KEY,
    at          INTEGER NOT NULL,
    event       TEXT NOT NULL,
    user_id     TEXT,
    address     TEXT,
    session_id  TEXT,
    detail      TEXT
);
CREATE INDEX audit_log_by_time ON audit_log (at);
CREATE INDEX audit_log_by_user ON audit_log (user_id, at);
