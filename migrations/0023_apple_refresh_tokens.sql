-- Sign in with Apple's server side: the refresh token Apple gave for an account's
-- authorization code, and the revocations still owed to Apple once an account is deleted
-- (App Store review guideline 5.1.1(v)).

-- One token per account and client id (a bundle id or services id): a newer one replaces
-- it, the old one queued for revocation in the same write.
CREATE TABLE apple_refresh_tokens (
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    client_id       TEXT NOT NULL,
    -- AES-256-GCM under the server-held outbox key, user id and client id bound in
    -- (AppleRefreshTokenSeal): the token cannot be read from the database alone.
    sealed_token    BLOB NOT NULL,
    created_at      INTEGER NOT NULL,
    PRIMARY KEY (user_id, client_id)
);

-- Revocations owed to Apple, written in the transaction that deletes the account (its
-- tokens move here, still sealed), sent by AppleRevocationSender with back-off, like mail.
-- No reference to users: the account is gone by the time they are sent.
CREATE TABLE apple_revocations (
    id               INTEGER PRIMARY KEY,
    user_id          TEXT NOT NULL,
    client_id        TEXT NOT NULL,
    -- Cleared once revoked or given up: nothing is kept that Apple would still honour.
    sealed_token     BLOB,
    created_at       INTEGER NOT NULL,
    next_attempt_at  INTEGER NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    -- Why the last attempt failed (a status and Apple's error code, never the token).
    last_error       TEXT,
    revoked_at       INTEGER,
    abandoned_at     INTEGER
);
CREATE INDEX apple_revocations_due ON apple_revocations (next_attempt_at) WHERE revoked_at IS NULL AND abandoned_at IS NULL;
