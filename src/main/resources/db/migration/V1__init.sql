-- GPUForge schema, version 1. Secrets are never stored here (see store.secret).
CREATE TABLE connection (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT    NOT NULL UNIQUE,
    kind        TEXT    NOT NULL CHECK (kind IN ('local', 'demo', 'proxmox', 'libvirt', 'ssh')),
    address     TEXT,
    username    TEXT,
    secret_ref  TEXT,
    created_at  INTEGER NOT NULL
);

CREATE TABLE event (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    at_millis   INTEGER NOT NULL,
    level       TEXT    NOT NULL CHECK (level IN ('INFO', 'WARN', 'ERROR')),
    source      TEXT    NOT NULL,
    message     TEXT    NOT NULL
);

CREATE INDEX event_at ON event (at_millis);
