package io.gpuforge.ui.monitor;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.monitor.AlertService;
import io.gpuforge.app.monitor.CostService;
import io.gpuforge.app.monitor.EventLog;
import io.gpuforge.app.monitor.GpuFleet;
import io.gpuforge.app.monitor.PowerLimitService;
import io.gpuforge.app.monitor.TelemetryHistory;
import java.util.Objects;

/**
 * What the GPU monitor and the GPU tabs of node and VM pages work through, and nothing else of the application: the
 * fleet's live GPUs, their history, power limits, the alert rules and what fired, the cost profile and reports, and the event log
 * a power limit set is written to. Built by the shell (the composition root) and handed to the monitor it opens.
 */
public record MonitorServices(GpuFleet fleet, TelemetryHistory history, PowerLimitService powerLimits,
                              AlertService alerts, CostService costs, EventLog events) {

    public MonitorServices {
        Objects.requireNonNull(fleet);
        Objects.requireNonNull(history);
        Objects.requireNonNull(powerLimits);
        Objects.requireNonNull(alerts);
        Objects.requireNonNull(costs);
        Objects.requireNonNull(events);
    }

    /** Taken from the application's services: by the composition root, once. */
    public static MonitorServices of(AppContext app) {
        return new MonitorServices(app.fleet(), app.telemetry().history(), app.telemetry().powerLimits(),
                app.alerts(), app.costs(), app.events());
    }
}
