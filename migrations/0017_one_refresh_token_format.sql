-- One refresh-token format: every session's seed is derived from session_seed_key (0013),
-- so no row keeps a seed, nor the hash of a token from before generations (0004). Sessions
-- made before 0013 have random seeds, which made their tokens: they end here, once
-- (revoked), so their access tokens are refused at the next request and their refresh
-- tokens answer INVALID_REFRESH_TOKEN; their clients sign in again.
UPDATE sessions SET revoked_at = CAST(strftime('%s', 'now') AS INTEGER)
WHERE revoked_at IS NULL
  AND created_at < (SELECT CAST(strftime('%s', applied_at) AS INTEGER) FROM schema_migrations WHERE version = 13);
ALTER TABLE sessions DROP COLUMN refresh_seed;
ALTER TABLE sessions DROP COLUMN legacy_refresh_hash;
