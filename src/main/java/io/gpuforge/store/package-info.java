/** SQLite storage: migrations and one repository per table, the telemetry store and its rollups. */
package io.gpuforge.store;
