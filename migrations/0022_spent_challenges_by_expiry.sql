-- Spent sign-in challenges keyed by their expiry, then their hash, in one B-tree: each
-- sign-in's row goes in at the right-hand end and expired rows come off the left, where a
-- key of the hash alone put every insert on a random page and kept two more B-trees (the
-- rowid table and the expiry index) beside it. A challenge's expiry is part of it, under
-- the server's MAC, so one challenge always has one key. Rows are carried over: a
-- challenge spent before the upgrade stays spent.
CREATE TABLE webauthn_spent_challenges_rebuilt (
    expires_at      INTEGER NOT NULL,
    challenge_hash  BLOB NOT NULL,
    PRIMARY KEY (expires_at, challenge_hash)
) WITHOUT ROWID;
INSERT INTO webauthn_spent_challenges_rebuilt (expires_at, challenge_hash)
    SELECT expires_at, challenge_hash FROM webauthn_spent_challenges;
DROP TABLE webauthn_spent_challenges;
ALTER TABLE webauthn_spent_challenges_rebuilt RENAME TO webauthn_spent_challenges;
