-- Accounts, display-name claims, presence, sessions and login throttling: migrations/
-- 0001_initial.sql for PostgreSQL. Times are unix seconds (UTC) and flags 0 or 1, as
-- BIGINT, exactly as SQLite's INTEGER holds them, so one store SQL serves both.

CREATE TABLE users (
    id                TEXT PRIMARY KEY,
    email             TEXT NOT NULL,
    -- Lower-cased, so one address cannot register twice in another case.
    email_key         TEXT NOT NULL UNIQUE,
    email_verified    BIGINT NOT NULL DEFAULT 0,
    -- PHC string: algorithm, iterations, salt and hash.
    password_hash     TEXT NOT NULL,
    -- The user's own spelling; uniqueness lives in display_names.
    display_name      TEXT NOT NULL,
    photo_url         TEXT,
    disabled          BIGINT NOT NULL DEFAULT 0,
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL
);

CREATE TABLE display_names (
    -- Lower-cased name: 'Ada.L' and 'ada.l' are one claim, and the primary key's unique
    -- index gives a contested name exactly one winner across every instance.
    name_key          TEXT PRIMARY KEY,
    user_id           TEXT NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
    claimed_at        BIGINT NOT NULL
);

CREATE TABLE presence (
    user_id           TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    status            TEXT NOT NULL CHECK (status IN ('online', 'away', 'offline')),
    last_seen         BIGINT NOT NULL
);

CREATE TABLE sessions (
    id                    TEXT PRIMARY KEY,
    user_id               TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    -- SHA-256 of the current refresh token; the token itself is never stored.
    refresh_hash          BYTEA NOT NULL UNIQUE,
    -- The token it replaced, honoured for the reuse grace after rotated_at.
    previous_refresh_hash BYTEA,
    rotated_at            BIGINT,
    user_agent            TEXT,
    created_at            BIGINT NOT NULL,
    last_used_at          BIGINT NOT NULL,
    revoked_at            BIGINT
);
CREATE INDEX sessions_by_user ON sessions (user_id);
CREATE INDEX sessions_by_previous_hash ON sessions (previous_refresh_hash);

-- Failed logins per account in the current window; survives a restart.
CREATE TABLE login_failures (
    email_key         TEXT PRIMARY KEY,
    window_start      BIGINT NOT NULL,
    failures          BIGINT NOT NULL
);
