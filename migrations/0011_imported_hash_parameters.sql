-- The password hash parameters of a system accounts were imported from: for Firebase,
-- the project's scrypt signer key, salt separator, rounds and memory cost. Stored once
-- per set and named by each imported user's stored hash
-- ($firebase-scrypt$set=<id>$<salt>$<hash>) until that user's first login replaces it
-- with PBKDF2. The signer key is a secret of the old project: like the password hashes
-- it stays in the database, and nothing logs or prints it.
CREATE TABLE imported_hash_parameters (
    id              INTEGER PRIMARY KEY,
    algorithm       TEXT NOT NULL CHECK (algorithm IN ('firebase-scrypt')),
    signer_key      BLOB NOT NULL,
    salt_separator  BLOB NOT NULL,
    rounds          INTEGER NOT NULL,
    memory_cost     INTEGER NOT NULL,
    created_at      INTEGER NOT NULL,
    UNIQUE (algorithm, signer_key, salt_separator, rounds, memory_cost)
);
