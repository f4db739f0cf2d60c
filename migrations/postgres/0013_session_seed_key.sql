-- New sessions' refresh seeds are derived from this key; see migrations/0013 for SQLite.
-- 32 random bytes from two version-4 UUIDs, as in 0004.
CREATE TABLE session_seed_key (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    secret  BYTEA NOT NULL
);
INSERT INTO session_seed_key (id, secret)
    VALUES (1, decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'));
