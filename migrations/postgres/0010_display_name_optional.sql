-- A user may be without a display name (an imported account whose name broke the rules
-- or was taken); see migrations/0010 for SQLite, which has to replace the column.
ALTER TABLE users ALTER COLUMN display_name DROP NOT NULL;
