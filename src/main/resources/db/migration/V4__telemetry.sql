-- GPUForge schema, version 4: GPU telemetry. One row per GPU (host + device, as GpuId); raw samples in chunks of
-- one minute per GPU (a compact blob, see store.SampleCodec; kept 48 h by default); 1-minute rollups with
-- min/avg/max per metric, the time covered by readings and the energy (kept 90 days by default).
CREATE TABLE gpu_series (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    host        TEXT    NOT NULL,
    device      TEXT    NOT NULL,
    name        TEXT    NOT NULL DEFAULT '',
    source      TEXT    NOT NULL,
    node        TEXT,
    vm          TEXT,
    last_ms     INTEGER NOT NULL DEFAULT 0,
    UNIQUE (host, device)
);

CREATE TABLE gpu_sample_chunk (
    series_id   INTEGER NOT NULL REFERENCES gpu_series (id) ON DELETE CASCADE,
    start_ms    INTEGER NOT NULL,
    end_ms      INTEGER NOT NULL,
    samples     INTEGER NOT NULL,
    data        BLOB    NOT NULL,
    PRIMARY KEY (series_id, start_ms)
) WITHOUT ROWID;

CREATE TABLE gpu_rollup_minute (
    series_id   INTEGER NOT NULL REFERENCES gpu_series (id) ON DELETE CASCADE,
    minute_ms   INTEGER NOT NULL,
    samples     INTEGER NOT NULL,
    covered_ms  INTEGER NOT NULL,
    energy_j    REAL    NOT NULL,
    data        BLOB    NOT NULL,
    PRIMARY KEY (series_id, minute_ms)
) WITHOUT ROWID;

CREATE TABLE telemetry_state (
    key         TEXT    PRIMARY KEY,
    value       INTEGER NOT NULL
);
