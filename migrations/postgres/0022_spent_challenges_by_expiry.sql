-- Spent sign-in challenges keyed by their expiry, then their hash; see migrations/0022 for
-- SQLite. One index, each new entry at its right-hand end and expired ones off its left,
-- where a key of the hash alone put every insert on a random page and needed a second
-- index for the sweep. Rows are kept: a challenge spent before the upgrade stays spent.
ALTER TABLE webauthn_spent_challenges DROP CONSTRAINT webauthn_spent_challenges_pkey;
DROP INDEX webauthn_spent_challenges_by_expiry;
ALTER TABLE webauthn_spent_challenges ADD PRIMARY KEY (expires_at, challenge_hash);
