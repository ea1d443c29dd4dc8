-- GPUForge schema: the task log, the audit trail of what was done through GPUForge (and, when asked for, what
-- others ran on a cluster): who (user at this computer, account the hypervisor saw), what, when, on which target,
-- how it ended, and the task's log. connection_name is kept so an entry still reads right after the connection
-- is removed (no foreign key: the audit trail outlives its connection).
CREATE TABLE task_log (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    started_millis  INTEGER NOT NULL,
    ended_millis    INTEGER,
    user_name       TEXT    NOT NULL,
    acting_as       TEXT    NOT NULL,
    connection_id   INTEGER NOT NULL,
    connection_name TEXT    NOT NULL,
    target          TEXT    NOT NULL,
    action          TEXT    NOT NULL,
    description     TEXT    NOT NULL,
    status          TEXT    NOT NULL CHECK (status IN ('RUNNING', 'OK', 'FAILED', 'CANCELLED')),
    status_text     TEXT    NOT NULL,
    upid            TEXT,
    log             TEXT    NOT NULL,
    origin          TEXT    NOT NULL CHECK (origin IN ('GPUFORGE', 'CLUSTER'))
);

CREATE INDEX task_log_started ON task_log (started_millis);
CREATE UNIQUE INDEX task_log_upid ON task_log (upid) WHERE upid IS NOT NULL;
