-- Accepted profile-picture uploads, one row each, for the per-account throttle (30 an
-- hour); see migrations/0014 for SQLite. Shared by every instance over this database.
CREATE TABLE picture_uploads (
    user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    uploaded_at  BIGINT NOT NULL
);
CREATE INDEX picture_uploads_by_user ON picture_uploads (user_id, uploaded_at);
