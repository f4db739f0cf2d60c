-- One refresh-token format: sessions made before 0013 end here, once, and no row keeps a
-- seed or a legacy hash any more; see migrations/0017 for SQLite.
UPDATE sessions SET revoked_at = FLOOR(EXTRACT(EPOCH FROM clock_timestamp()))
WHERE revoked_at IS NULL
  AND created_at < (SELECT FLOOR(EXTRACT(EPOCH FROM CAST(applied_at AS TIMESTAMPTZ))) FROM schema_migrations WHERE version = 13);
ALTER TABLE sessions DROP COLUMN refresh_seed;
ALTER TABLE sessions DROP COLUMN legacy_refresh_hash;
