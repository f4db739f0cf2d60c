-- Failed-login windows are pruned as they expire; this index keeps the prune cheap, so a
-- flood of logins for made-up emails cannot grow the table without bound.
CREATE INDEX login_failures_by_window ON login_failures (window_start);
