-- Refresh tokens carry their session's generation and a MAC under the server's refresh
-- key over (session, generation, per-session seed); see migrations/0004 for SQLite. A
-- session from before keeps the hash of its current token in legacy_refresh_hash, and
-- gets a seed of 32 random bytes (two version-4 UUIDs: PostgreSQL's strong random source
-- without an extension).
ALTER TABLE sessions RENAME COLUMN refresh_hash TO legacy_refresh_hash;
ALTER TABLE sessions ALTER COLUMN legacy_refresh_hash DROP NOT NULL;
ALTER TABLE sessions DROP COLUMN retired_refresh_tokens;
ALTER TABLE sessions ADD COLUMN refresh_generation BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN refresh_seed BYTEA;
UPDATE sessions SET refresh_seed = decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex');
ALTER TABLE sessions ALTER COLUMN refresh_seed SET NOT NULL;
ALTER TABLE sessions ADD COLUMN rotated_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN previous_rotated_at BIGINT NOT NULL DEFAULT 0;
