/** GPU telemetry for the window and the CLI: sources, sampling, history, the fleet, alerts, cost and energy. */
package io.gpuforge.app.monitor;
