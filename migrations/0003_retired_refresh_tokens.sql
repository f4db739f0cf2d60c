-- Each session keeps the refresh tokens its rotations retired (the newest 16, hash and
-- time of retirement, packed into one blob), so reuse is detected however many of those
-- rotations ago the token was retired, not only the last one. Kept in the session row:
-- a refresh rewrites one row instead of inserting into a table keyed by random hashes.
ALTER TABLE sessions ADD COLUMN retired_refresh_tokens BLOB NOT NULL DEFAULT x'';

-- The single "previous token" of each session is superseded by the column above.
DROP INDEX sessions_by_previous_hash;
ALTER TABLE sessions DROP COLUMN previous_refresh_hash;
ALTER TABLE sessions DROP COLUMN rotated_at;
