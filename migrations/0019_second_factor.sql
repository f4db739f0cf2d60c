-- The second factor (TOTP, RFC 6238), its recovery codes, and the MFA challenges a
-- password login answers for an account that has one. Everything goes with its user.

-- One factor per user: pending from enrolment until a first correct code, then live.
CREATE TABLE totp_factors (
    user_id             TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    -- AES-256-GCM under the server-held outbox key, the user id bound in (TOTP+Sealing):
    -- the secret cannot be read from the database alone.
    sealed_secret       BLOB NOT NULL,
    -- 0 while pending, 1 once live.
    enabled             INTEGER NOT NULL DEFAULT 0,
    created_at          INTEGER NOT NULL,
    enabled_at          INTEGER,
    -- The step of the last accepted code: a code of that step or an earlier one is a
    -- replay. Moved on only by a conditional update, so of two racing uses one wins.
    last_accepted_step  INTEGER
);

-- Single use: a code's row is deleted by the sign-in it lets in.
CREATE TABLE recovery_codes (
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    -- SHA-256 of the code, salted by the user id (RecoveryCodes); never the code.
    code_hash   BLOB NOT NULL,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (user_id, code_hash)
);

-- What a correct password for an account with a live factor gets instead of a session.
CREATE TABLE mfa_challenges (
    -- SHA-256 of the mfaToken; the token itself is never stored.
    token_hash      BLOB PRIMARY KEY,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    -- The lower-cased email the login's password check was counted under: wrong codes
    -- count against the same account.
    account_key     TEXT NOT NULL,
    -- The account's password epoch at login: a password change or reset voids the token.
    password_epoch  INTEGER NOT NULL,
    -- The id of the valid device token the login presented, if any: wrong codes then
    -- count against that device alone, as wrong passwords do.
    device_id       BLOB,
    created_at      INTEGER NOT NULL,
    expires_at      INTEGER NOT NULL,
    wrong_codes     INTEGER NOT NULL DEFAULT 0,
    used_at         INTEGER
);
CREATE INDEX mfa_challenges_by_user ON mfa_challenges (user_id);
CREATE INDEX mfa_challenges_by_expiry ON mfa_challenges (expires_at);
