package io.gpuforge.cli.gpu;

import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.cli.common.GpuHolder;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.telemetry.FleetGpu;
import java.util.Optional;
import io.gpuforge.app.monitor.TelemetryService;
import io.gpuforge.domain.telemetry.GpuSample;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import io.gpuforge.cli.common.CliServices;

/** {@code gpuforge gpu list}: every GPU of a target with one reading each. */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List the GPUs of a host, exporter or VM with"
        + " one reading each.")
final class GpuListCommand extends CliCommand {
    @Mixin
    GpuTargetOptions target = new GpuTargetOptions();

    GpuListCommand(CliServices services) {
        super(services);
    }

    /** The census row of a reading: the same node and PCI address. */
    private static Optional<FleetGpu> row(List<FleetGpu> rows, GpuSample s) {
        return rows.stream().filter(r -> s.node().map(r.host()::equals).orElse(false)
                && r.address().map(s.gpu().device()::equals).orElse(false)).findFirst();
    }

    @Override
    public Integer call() throws Exception {
        try (AppContext ctx = services.openContext()) {
            List<GpuSample> gpus;
            GpuTargetOptions.Named named;
            try {
                named = target.named(services, ctx);
            } catch (IllegalArgumentException e) {
                services.output().error("gpuforge gpu list: " + e.getMessage());
                return 2;
            }
            List<FleetGpu> census = List.of();
            try (named) {
                gpus = named.read(ctx.telemetry(), Duration.ofSeconds(15)).stream().filter(named::onNode).toList();
                // a hypervisor's GPUs: their drivers and holders as inventory and the fleet have them
                Optional<ConnectionSession> s = named.hypervisor(ctx);
                if (s.isPresent()) {
                    census = ctx.fleet().census(s.get().connection(), s.get());
                }
            } catch (TelemetryService.Failure | IllegalArgumentException | BackendException e) {
                return failed("gpu list", e);
            }
            List<FleetGpu> rows = census;
            if (json.enabled()) {
                Map<String, Object> root = new LinkedHashMap<>();
                root.put("gpus", gpus.stream().map(g -> {
                    Map<String, Object> m = GpuCommand.json(g);
                    row(rows, g).ifPresent(r -> {
                        m.put("driver", r.driver().orElse("unknown"));
                        m.put("holder", GpuHolder.json(r));
                    });
                    return m;
                }).toList());
                services.output().json(root);
            } else {
                if (gpus.isEmpty()) {
                    services.output().line("no GPU" + target.nodeNamed().map(n -> " on node " + n).orElse(""));
                }
                // the holder is said once, after the driver, as inventory says it
                gpus.forEach(g -> {
                    Optional<FleetGpu> r = row(rows, g);
                    services.output().line(GpuCommand.text(g, r.isEmpty()) + r.map(x -> "  driver "
                            + x.driver().orElse("unknown") + "  " + GpuHolder.text(x)).orElse(""));
                });
            }
            return 0;
        }
    }
}
