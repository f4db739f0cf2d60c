-- Sign-in challenges are no longer stored when they are made: each carries its expiry and
-- the server's MAC (`LoginChallenges`), so asking for options writes nothing. Only a
-- challenge that has been used is recorded, as its hash, until it would have expired
-- anyway: a second use finds it here and is refused. Sign-in rows of the old table are
-- dropped (their challenges would need a row that is no longer looked at).
CREATE TABLE webauthn_spent_challenges (
    challenge_hash  BLOB PRIMARY KEY,
    expires_at      INTEGER NOT NULL
);
CREATE INDEX webauthn_spent_challenges_by_expiry ON webauthn_spent_challenges (expires_at);
DELETE FROM webauthn_challenges WHERE purpose = 'login';
