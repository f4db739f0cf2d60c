-- A user may be without a display name: accounts imported from another system whose
-- name breaks the rules or is taken by someone else keep none until they choose one
-- (PATCH /v1/users/me). SQLite cannot drop NOT NULL in place, and rebuilding users would
-- cascade-delete every row that references it (foreign keys are on inside this
-- transaction), so the column is replaced instead: a nullable copy is added and filled,
-- the old column dropped (it has no index or constraint that would stop that) and the
-- copy takes its name. Rows keep their rowid, and no other table is touched.
ALTER TABLE users ADD COLUMN display_name_nullable TEXT;
UPDATE users SET display_name_nullable = display_name;
ALTER TABLE users DROP COLUMN display_name;
ALTER TABLE users RENAME COLUMN display_name_nullable TO display_name;
