-- Account events (password change or reset, email change, logout, revocation, disabling,
-- deletion) end sessions and void links in the transaction that makes them; what they
-- ended is then heard by every process on this database. Over SQLite the running server
-- tails this table (an admin command is another process); rows older than an hour are
-- pruned as new ones come. `origin` is the process that wrote the row, which skips its own.
CREATE TABLE account_events (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    origin   TEXT NOT NULL,
    payload  TEXT NOT NULL,
    at       INTEGER NOT NULL
);
-- Device tokens (login throttling) are bound to the account's password: a password change
-- or reset moves the epoch on, and every device token of the older epoch is void.
ALTER TABLE users ADD COLUMN password_epoch INTEGER NOT NULL DEFAULT 0;
