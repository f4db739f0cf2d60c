-- New sessions' refresh seeds are derived from this key (an HMAC of the session id), so a
-- server can check a refresh token before it reads the session, and over PostgreSQL rotate
-- it in one statement. The key stays in the database, the refresh key outside it: neither
-- alone makes a token, as with random seeds. Sessions from before keep their random seeds.
CREATE TABLE session_seed_key (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    secret  BLOB NOT NULL
);
INSERT INTO session_seed_key (id, secret) VALUES (1, randomblob(32));
