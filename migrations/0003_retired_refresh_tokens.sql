-- Every refresh token a rotation replaced, so reuse is detected however many rotations
-- ago it was retired (not only the last one). Kept for the session idle timeout: a token
-- older than that belongs to a session that would have expired without its refreshes.
CREATE TABLE retired_refresh_tokens (
    refresh_hash      BLOB PRIMARY KEY,
    session_id        TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    retired_at        INTEGER NOT NULL
);
CREATE INDEX retired_refresh_tokens_by_time ON retired_refresh_tokens (retired_at);
CREATE INDEX retired_refresh_tokens_by_session ON retired_refresh_tokens (session_id);

-- The single "previous token" of each session is superseded by the table above.
DROP INDEX sessions_by_previous_hash;
ALTER TABLE sessions DROP COLUMN previous_refresh_hash;
ALTER TABLE sessions DROP COLUMN rotated_at;
