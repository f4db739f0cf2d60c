-- Refresh tokens carry their session's generation and a MAC under the server's refresh
-- key over (session, generation, per-session seed), so a session keeps constant state
-- and any authentic token of an earlier generation is recognised as reuse, however many
-- rotations ago it was retired. The seed alone cannot make a token (the key lives outside
-- the database); the key alone cannot either (the seed is per session).
-- Sessions from before this version keep the hash of their current token in
-- legacy_refresh_hash: that token is honoured once and moves the session to the new form,
-- so nobody is signed out by the upgrade.
CREATE TABLE sessions_rebuilt (
    id                   TEXT PRIMARY KEY,
    user_id              TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    refresh_generation   INTEGER NOT NULL DEFAULT 0,
    refresh_seed         BLOB NOT NULL,
    -- When the current generation was issued, and the one before it: the retirement
    -- times of the two previous generations, all the reuse grace needs.
    rotated_at           INTEGER NOT NULL DEFAULT 0,
    previous_rotated_at  INTEGER NOT NULL DEFAULT 0,
    legacy_refresh_hash  BLOB,
    user_agent           TEXT,
    created_at           INTEGER NOT NULL,
    last_used_at         INTEGER NOT NULL,
    revoked_at           INTEGER
);
INSERT INTO sessions_rebuilt (id, user_id, refresh_seed, legacy_refresh_hash, user_agent, created_at, last_used_at, revoked_at)
    SELECT id, user_id, randomblob(32), refresh_hash, user_agent, created_at, last_used_at, revoked_at FROM sessions;
DROP TABLE sessions;
ALTER TABLE sessions_rebuilt RENAME TO sessions;
CREATE INDEX sessions_by_user ON sessions (user_id);
