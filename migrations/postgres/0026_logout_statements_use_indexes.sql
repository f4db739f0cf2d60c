-- See migrations/0026 for SQLite: voiding the email-change links an ended session asked
-- for read every account token. PostgreSQL keeps no feed rows (account events go out with
-- NOTIFY), so its account_events needs no index.
CREATE INDEX account_tokens_by_asking_session ON account_tokens (asking_session) WHERE asking_session IS NOT NULL;
