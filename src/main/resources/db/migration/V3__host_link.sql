-- GPUForge schema, version 3: which host does the host-level work of a hypervisor node (probe, apply, reboot,
-- telemetry over SSH). target is 'local', 'ssh:<connection id>' or 'adhoc:user@host[:port]'.
CREATE TABLE host_link (
    connection_id INTEGER NOT NULL REFERENCES connection (id) ON DELETE CASCADE,
    node          TEXT    NOT NULL,
    target        TEXT    NOT NULL,
    PRIMARY KEY (connection_id, node)
);
