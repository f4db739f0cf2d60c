-- Sign-in providers' identities and accounts without an address: see migrations/0024 for
-- SQLite (an account without an address holds `#` and its id in email_key there too, so
-- both stores read alike).
ALTER TABLE users ALTER COLUMN email DROP NOT NULL;

CREATE TABLE identities (
    provider    TEXT NOT NULL,
    subject     TEXT NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    email       TEXT,
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (provider, subject),
    UNIQUE (user_id, provider)
);
