-- Sessions remember the refresh tokens their rotations retired (the newest 16: a 128-bit
-- prefix of each token's SHA-256 and the time it was retired, packed into one blob), so
-- reuse is detected however many of those rotations ago the token was retired, not only
-- the last one. Refresh tokens now name their session, so the session is found by its
-- primary key: the index on refresh_hash, written at random places on every refresh,
-- goes, and so do the single "previous token" columns this replaces.
CREATE TABLE sessions_rebuilt (
    id                     TEXT PRIMARY KEY,
    user_id                TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    -- SHA-256 of the current refresh token; the token itself is never stored.
    refresh_hash           BLOB NOT NULL,
    retired_refresh_tokens BLOB NOT NULL DEFAULT x'',
    user_agent             TEXT,
    created_at             INTEGER NOT NULL,
    last_used_at           INTEGER NOT NULL,
    revoked_at             INTEGER
);
INSERT INTO sessions_rebuilt (id, user_id, refresh_hash, user_agent, created_at, last_used_at, revoked_at)
    SELECT id, user_id, refresh_hash, user_agent, created_at, last_used_at, revoked_at FROM sessions;
DROP TABLE sessions;
ALTER TABLE sessions_rebuilt RENAME TO sessions;
CREATE INDEX sessions_by_user ON sessions (user_id);
