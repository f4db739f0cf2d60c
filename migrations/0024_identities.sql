-- Sign-in providers' identities (Apple, Google, OpenID Connect providers) linked to
-- accounts, and accounts without an address.
--
-- An account made through a provider that shared no address has `email` NULL. SQLite
-- cannot drop NOT NULL in place (see 0010 for why users is not rebuilt), so `email` is
-- replaced by a nullable copy as `display_name` was. `email_key` keeps NOT NULL UNIQUE (a
-- UNIQUE column cannot be dropped): an account without an address holds `#` and its id
-- there, which no normalised address can equal (every one has an `@` and no `#` first).
ALTER TABLE users ADD COLUMN email_nullable TEXT;
UPDATE users SET email_nullable = email;
ALTER TABLE users DROP COLUMN email;
ALTER TABLE users RENAME COLUMN email_nullable TO email;

-- One row per provider identity: the provider's name as configured (`apple`, `google`,
-- an `oidcProviders` name) and its `sub`, compared as bytes. An identity belongs to one
-- account, and an account holds at most one identity of each provider. `email` is the
-- address the provider's token named when the identity was linked, for the account's
-- list; the account's own address is in users.
CREATE TABLE identities (
    provider    TEXT NOT NULL,
    subject     TEXT NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    email       TEXT,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (provider, subject),
    UNIQUE (user_id, provider)
);
