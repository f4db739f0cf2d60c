-- Account tokens also verify email addresses and confirm an email change; see
-- migrations/0007 for SQLite, which rebuilds the table to widen the check.
ALTER TABLE account_tokens DROP CONSTRAINT account_tokens_purpose_check;
ALTER TABLE account_tokens ADD CONSTRAINT account_tokens_purpose_check CHECK (purpose IN ('reset', 'verify', 'email_change'));
ALTER TABLE account_tokens ADD COLUMN new_email TEXT;
ALTER TABLE account_tokens ADD COLUMN asking_session TEXT;
