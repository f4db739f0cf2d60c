-- See migrations/0027 for SQLite: old mail is found by when it was queued, a batch at a
-- time. Sessions get no such index here: a refresh's UPDATE that PostgreSQL cannot keep
-- on the row's page (no HOT update) adds an entry to every index of the table, and this
-- one added 2 µs of the server's CPU to a refresh (19 to 21, measured in turns). The
-- prune reads the table instead, every 6 hours, which holds no other writer back here.
CREATE INDEX mail_outbox_by_creation ON mail_outbox (created_at);
