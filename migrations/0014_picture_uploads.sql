-- Accepted profile-picture uploads, one row each, for the per-account throttle (30 an
-- hour): the rows of the last hour are counted, older ones are dropped as new ones come,
-- so an account keeps at most 30. In the database, so every instance over it counts the
-- same uploads and a restart forgets none.
CREATE TABLE picture_uploads (
    user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    uploaded_at  INTEGER NOT NULL
);
CREATE INDEX picture_uploads_by_user ON picture_uploads (user_id, uploaded_at);
