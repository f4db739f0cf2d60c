-- A message the sender gave up on: the mail server refused it for good (a 5xx answer),
-- or it waited longer than the links it carries live. It stays for the operator to
-- read (last_error says why) and is never sent.
ALTER TABLE mail_outbox ADD COLUMN abandoned_at INTEGER;
DROP INDEX mail_outbox_due;
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE sent_at IS NULL AND abandoned_at IS NULL;
