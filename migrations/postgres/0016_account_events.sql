-- See migrations/0016 for SQLite. Over PostgreSQL what an account event ended is sent
-- with NOTIFY in the transaction that makes it (delivered once committed), so no table of
-- events is needed; only the device tokens' password epoch.
ALTER TABLE users ADD COLUMN password_epoch BIGINT NOT NULL DEFAULT 0;
