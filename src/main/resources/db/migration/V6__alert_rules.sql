-- GPUForge schema: the GPU monitor's alert rules and cost settings.
-- An alert rule watches one GPU (gpu_host + gpu_device, as GpuId) or every GPU (both NULL).
CREATE TABLE alert_rule (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    gpu_host    TEXT,
    gpu_device  TEXT,
    kind        TEXT    NOT NULL CHECK (kind IN ('temperature', 'power-of-limit', 'throttling', 'source-lost')),
    threshold   REAL    NOT NULL DEFAULT 0,
    hold_ms     INTEGER NOT NULL DEFAULT 0,
    hysteresis  REAL    NOT NULL DEFAULT 0,
    enabled     INTEGER NOT NULL DEFAULT 1,
    CHECK ((gpu_host IS NULL) = (gpu_device IS NULL))
);

-- What energy and hardware cost: one row (id 1). Peak hours are HH:MM, local to zone.
CREATE TABLE cost_profile (
    id                  INTEGER PRIMARY KEY CHECK (id = 1),
    currency            TEXT    NOT NULL,
    price_kwh           REAL    NOT NULL,
    peak_from           TEXT,
    peak_to             TEXT,
    peak_price_kwh      REAL,
    zone                TEXT    NOT NULL,
    hardware_price      REAL    NOT NULL DEFAULT 0,
    gpus_sharing        INTEGER NOT NULL DEFAULT 1,
    depreciation_days   INTEGER NOT NULL DEFAULT 1095,
    cloud_price_gpu_h   REAL
);
