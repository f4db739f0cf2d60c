-- Which instance holds presence streams open for which user; see migrations/0012 for
-- SQLite. Over PostgreSQL this is what makes a user online while any instance holds a
-- stream, and offline when the last one closes anywhere or its instance dies.
CREATE TABLE presence_instances (
    id            TEXT PRIMARY KEY,
    heartbeat_at  BIGINT NOT NULL
);
CREATE TABLE presence_holds (
    user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    instance_id  TEXT NOT NULL REFERENCES presence_instances(id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, instance_id)
);
CREATE INDEX presence_holds_by_instance ON presence_holds (instance_id);
