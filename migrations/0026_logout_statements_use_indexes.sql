-- Two statements every logout (and every other account event) runs on the one writer read
-- a whole table: voiding the email-change links the ended session asked for looked for
-- `asking_session` among every account token ever made (a row per sign-up's verification
-- link, per reset), and pruning the event feed looked for rows older than an hour among
-- the whole hour's. With 300,000 tokens and 100,000 events they took 28 ms and 12 ms, and
-- every other write (each refresh) waited behind them. Only email-change tokens name a
-- session, so the first index holds those alone; the feed's rows come in time order, so
-- the second is appended to at its end.
CREATE INDEX account_tokens_by_asking_session ON account_tokens (asking_session) WHERE asking_session IS NOT NULL;
CREATE INDEX account_events_by_time ON account_events (at);
