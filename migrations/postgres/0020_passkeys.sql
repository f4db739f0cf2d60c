-- Passkeys, their accounts' user handles and outstanding challenges: see migrations/0020
-- for SQLite.
CREATE TABLE passkeys (
    credential_id  BYTEA PRIMARY KEY,
    user_id        TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    public_key     BYTEA NOT NULL,
    algorithm      BIGINT NOT NULL,
    sign_count     BIGINT NOT NULL,
    name           TEXT NOT NULL,
    backed_up      BIGINT NOT NULL,
    created_at     BIGINT NOT NULL,
    last_used_at   BIGINT
);
CREATE INDEX passkeys_by_user ON passkeys (user_id, created_at);

CREATE TABLE webauthn_user_handles (
    user_id  TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    handle   BYTEA NOT NULL UNIQUE
);

CREATE TABLE webauthn_challenges (
    challenge_hash  BYTEA PRIMARY KEY,
    purpose         TEXT NOT NULL CHECK (purpose IN ('register', 'login')),
    user_id         TEXT REFERENCES users(id) ON DELETE CASCADE,
    expires_at      BIGINT NOT NULL
);
CREATE INDEX webauthn_challenges_by_expiry ON webauthn_challenges (expires_at);
