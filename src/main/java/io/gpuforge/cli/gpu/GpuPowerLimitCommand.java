package io.gpuforge.cli.gpu;

import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.monitor.PowerLimitService;
import io.gpuforge.app.monitor.TelemetryService;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import io.gpuforge.cli.common.CliServices;

/** {@code gpuforge gpu power-limit --gpu ID --watts W [--persist]}. */
@Command(name = "power-limit", mixinStandardHelpOptions = true, description = "Set a GPU's power limit within the range"
        + " its board allows; --persist keeps it after reboots (a systemd unit, applied as a plan; gpuforge rollback"
        + " undoes it).")
final class GpuPowerLimitCommand extends CliCommand {
    @Mixin
    GpuTargetOptions target = new GpuTargetOptions();

    @Option(names = "--gpu", required = true, paramLabel = "ID", description = "The GPU (its id from gpuforge gpu list).")
    String gpu;

    @Option(names = "--watts", required = true, paramLabel = "W", description = "The new limit in watts.")
    double watts;

    @Option(names = "--persist", description = "Keep the limit after reboots (systemd unit on the host).")
    boolean persist;

    GpuPowerLimitCommand(CliServices services) {
        super(services);
    }

    @Override
    public Integer call() throws Exception {
        if (!target.named()) {
            services.output().error("gpuforge gpu power-limit: a power limit changes a GPU: say where, with --local"
                    + " for this computer, --ssh USER@HOST or --connection NAME");
            return 2;
        }
        if (!(watts > 0) || Double.isInfinite(watts)) {
            services.output().error("gpuforge gpu power-limit: --watts takes a positive number of watts, not "
                    + GpuCommand.round(watts));
            return 2;
        }
        try (AppContext ctx = services.openContext()) {
            PowerLimitService.Result r;
            try {
                r = ctx.telemetry().powerLimits().set(target.target(services, ctx), gpu, watts, persist);
            } catch (TelemetryService.Failure | IllegalArgumentException e) {
                return failed("gpu power-limit", e);
            }
            if (json.enabled()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("gpu", r.gpu().toString());
                m.put("power_limit_w", GpuCommand.round(r.watts()));
                m.put("how", r.how());
                r.planDiff().ifPresent(d -> m.put("plan_diff", d));
                r.appliedAs().ifPresent(a -> m.put("applied", a));
                services.output().json(m);
            } else {
                services.output().line("Power limit of " + r.gpu() + " set to " + GpuCommand.round(r.watts()) + " W ("
                        + r.how() + ")");
                r.planDiff().ifPresent(d -> services.output().line(d));
                r.appliedAs().ifPresent(a -> services.output().line("Kept after reboots: " + a
                        + "; 'gpuforge rollback' undoes it."));
            }
            return 0;
        }
    }
}
