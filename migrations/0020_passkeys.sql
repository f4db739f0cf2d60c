-- Passkeys (WebAuthn credentials). The credential id is the authenticator's, unique across
-- every account: a second registration of one id is refused (PASSKEY_EXISTS). The public
-- key is the COSE key exactly as the authenticator encoded it; `sign_count` is the last
-- counter seen that moved forward (synced passkeys report 0 forever).
CREATE TABLE passkeys (
    credential_id  BLOB PRIMARY KEY,
    user_id        TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    public_key     BLOB NOT NULL,
    algorithm      INTEGER NOT NULL,
    sign_count     INTEGER NOT NULL,
    name           TEXT NOT NULL,
    backed_up      INTEGER NOT NULL,
    created_at     INTEGER NOT NULL,
    last_used_at   INTEGER
);
CREATE INDEX passkeys_by_user ON passkeys (user_id, created_at);

-- The account's WebAuthn user handle: 32 random bytes made on first use, neither the user
-- id nor the address, so an authenticator's record names no one.
CREATE TABLE webauthn_user_handles (
    user_id  TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    handle   BLOB NOT NULL UNIQUE
);

-- Outstanding ceremony challenges, stored only as their SHA-256; a row is deleted by its
-- first use, good or bad, and expires 5 minutes after it was made. A registration
-- challenge belongs to the account that asked for it; a sign-in challenge to no one.
CREATE TABLE webauthn_challenges (
    challenge_hash  BLOB PRIMARY KEY,
    purpose         TEXT NOT NULL CHECK (purpose IN ('register', 'login')),
    user_id         TEXT REFERENCES users(id) ON DELETE CASCADE,
    expires_at      INTEGER NOT NULL
);
CREATE INDEX webauthn_challenges_by_expiry ON webauthn_challenges (expires_at);
