-- GPUForge schema: the user's VM templates (the built-in ones ship with GPUForge). body is one template as JSON,
-- in the template file's format of version format_version.
CREATE TABLE vm_template (
    id             TEXT    PRIMARY KEY,
    name           TEXT    NOT NULL UNIQUE,
    format_version INTEGER NOT NULL,
    body           TEXT    NOT NULL,
    updated_at     INTEGER NOT NULL
);
