-- Sessions remember the refresh tokens their rotations retired (see migrations/0003 for
-- SQLite, which rebuilds the table; PostgreSQL alters it in place): the unique index on
-- refresh_hash and the single "previous token" columns go.
ALTER TABLE sessions DROP CONSTRAINT sessions_refresh_hash_key;
DROP INDEX sessions_by_previous_hash;
ALTER TABLE sessions DROP COLUMN previous_refresh_hash;
ALTER TABLE sessions DROP COLUMN rotated_at;
ALTER TABLE sessions ADD COLUMN retired_refresh_tokens BYTEA NOT NULL DEFAULT '\x'::bytea;
