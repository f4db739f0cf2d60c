-- A message the sender gave up on stays for the operator to read and is never sent; see
-- migrations/0008 for SQLite.
ALTER TABLE mail_outbox ADD COLUMN abandoned_at BIGINT;
DROP INDEX mail_outbox_due;
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL AND abandoned_at IS NULL;
