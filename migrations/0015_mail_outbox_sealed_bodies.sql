-- Mailed links no longer rest in the database in the clear: a queued message's bodies are
-- sealed (AES-256-GCM under the outbox-key file in the data directory, never in the
-- database; recipient and subject stay readable for the operator), and no body is kept
-- once the message is delivered or given up. A backup, replica or dump of the database
-- alone then yields no working link.
-- text_body and html_body stay only for messages queued in the clear before this
-- migration and still pending: those are delivered once, as they were queued, then
-- cleared. The bodies of messages already delivered or given up are dropped here.
-- SQLite cannot drop NOT NULL in place, so both columns are replaced as in 0010: a
-- nullable copy filled for pending rows only, the old column dropped (which rewrites the
-- rows) and the copy renamed. secure_delete zeroes the pages the old bodies leave behind,
-- so they cannot be read back from the free space of the file either.
PRAGMA secure_delete = ON;
ALTER TABLE mail_outbox ADD COLUMN sealed_body BLOB;
ALTER TABLE mail_outbox ADD COLUMN text_body_pending TEXT;
ALTER TABLE mail_outbox ADD COLUMN html_body_pending TEXT;
UPDATE mail_outbox SET text_body_pending = text_body, html_body_pending = html_body
    WHERE sent_at IS NULL AND abandoned_at IS NULL;
ALTER TABLE mail_outbox DROP COLUMN text_body;
ALTER TABLE mail_outbox DROP COLUMN html_body;
ALTER TABLE mail_outbox RENAME COLUMN text_body_pending TO text_body;
ALTER TABLE mail_outbox RENAME COLUMN html_body_pending TO html_body;
