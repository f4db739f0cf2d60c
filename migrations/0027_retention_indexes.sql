-- Rows that only record the past are deleted once they are old enough (`Retention`), a
-- batch at a time on the one writer. These indexes let each batch find the oldest rows
-- without reading the table: sessions go some time after their maximum lifetime ended
-- them, counted from when they began; sent or given-up mail (its envelope, the body went
-- at delivery) once older than the audit retention. Both columns are set once, by the
-- insert, from the clock, so a new row's entry goes at the index's end.
CREATE INDEX sessions_by_creation ON sessions (created_at);
CREATE INDEX mail_outbox_by_creation ON mail_outbox (created_at);
