-- Failed password checks are counted per account and client address (scope = the
-- address, IPv6 by /64) and per account from everywhere (scope = '*'), so a stranger's
-- guesses lock out only the stranger, while the account-wide ceiling still stops a
-- distributed attack. Every place that checks a password counts (login, password change,
-- account deletion). The account is its lower-cased email, known or not.
CREATE TABLE password_failures (
    account_key   TEXT NOT NULL,
    scope         TEXT NOT NULL,
    window_start  INTEGER NOT NULL,
    failures      INTEGER NOT NULL,
    PRIMARY KEY (account_key, scope)
);
CREATE INDEX password_failures_by_window ON password_failures (window_start);
DROP TABLE login_failures;
