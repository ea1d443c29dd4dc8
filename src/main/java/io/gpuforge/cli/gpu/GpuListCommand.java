package io.gpuforge.cli.gpu;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.monitor.TelemetryService;
import io.gpuforge.domain.telemetry.GpuSample;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.JsonOption;

/** {@code gpuforge gpu list}: every GPU of a target with one reading each. */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List the GPUs of a host, exporter or VM with"
        + " one reading each.")
final class GpuListCommand implements Callable<Integer> {

    @Mixin
    GpuTargetOptions target = new GpuTargetOptions();

    @Mixin
    JsonOption json = new JsonOption();

    private final CliServices services;

    GpuListCommand(CliServices services) {
        this.services = services;
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
            try (named) {
                gpus = named.read(ctx.telemetry(), Duration.ofSeconds(15));
            } catch (TelemetryService.Failure | IllegalArgumentException e) {
                services.output().error("gpuforge gpu list: " + e.getMessage());
                return 1;
            }
            if (json.enabled()) {
                Map<String, Object> root = new LinkedHashMap<>();
                root.put("gpus", gpus.stream().map(GpuCommand::json).toList());
                services.output().json(root);
            } else {
                gpus.forEach(s -> services.output().line(GpuCommand.text(s)));
            }
            return 0;
        }
    }
}
