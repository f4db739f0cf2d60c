-- Queued bodies are sealed under the outbox-key file, and no body is kept once a message
-- is delivered or given up; see migrations/0015 for SQLite. The old row versions holding
-- the cleared bodies go with PostgreSQL's next vacuum of the table.
ALTER TABLE mail_outbox ADD COLUMN sealed_body BYTEA;
ALTER TABLE mail_outbox ALTER COLUMN text_body DROP NOT NULL, ALTER COLUMN html_body DROP NOT NULL;
UPDATE mail_outbox SET text_body = NULL, html_body = NULL WHERE sent_at IS NOT NULL OR abandoned_at IS NOT NULL;
