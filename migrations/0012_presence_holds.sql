-- Which instance holds presence streams open for which user: a user is online while any
-- instance holds one, and goes offline when the last hold anywhere goes. Each instance
-- says it is alive (heartbeat_at, unix seconds); the holds of one silent for longer than
-- the presence timeout (it died) are taken away by the others, and users left without a
-- hold go offline. One instance over SQLite uses the same rows: a crashed run's holds go
-- the same way.
CREATE TABLE presence_instances (
    id            TEXT PRIMARY KEY,
    heartbeat_at  INTEGER NOT NULL
);
CREATE TABLE presence_holds (
    user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    instance_id  TEXT NOT NULL REFERENCES presence_instances(id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, instance_id)
);
CREATE INDEX presence_holds_by_instance ON presence_holds (instance_id);
