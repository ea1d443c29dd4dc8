-- GPUForge schema: the fixes a diagnosis applied to a VM and its host, to roll back later. The VM's change and the
-- change that undoes it are JSON ({"settings": {key: value or null}} or {"document": "<domain …>"}); host_journal is
-- the host's journal id of the host side (rolled back there, the host keeps the backups). Never a secret.
CREATE TABLE diagnosis_fix (
    id            TEXT    PRIMARY KEY,
    connection_id INTEGER NOT NULL REFERENCES connection (id) ON DELETE CASCADE,
    node          TEXT    NOT NULL,
    vm            TEXT    NOT NULL,
    cause         TEXT    NOT NULL,
    at_millis     INTEGER NOT NULL,
    host_journal  TEXT,
    vm_change     TEXT,
    vm_undo       TEXT,
    vm_version    TEXT,
    diff          TEXT    NOT NULL,
    state         TEXT    NOT NULL CHECK (state IN ('APPLIED', 'ROLLED_BACK'))
);
