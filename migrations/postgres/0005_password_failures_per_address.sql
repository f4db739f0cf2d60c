-- Failed password checks are counted per account and client address (scope = the
-- address, IPv6 by /64) and per account from everywhere (scope = '*'); see migrations/
-- 0005 for SQLite. Shared by every instance over this database.
CREATE TABLE password_failures (
    account_key   TEXT NOT NULL,
    scope         TEXT NOT NULL,
    window_start  BIGINT NOT NULL,
    failures      BIGINT NOT NULL,
    PRIMARY KEY (account_key, scope)
);
CREATE INDEX password_failures_by_window ON password_failures (window_start);
DROP TABLE login_failures;
