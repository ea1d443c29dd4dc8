package io.gpuforge.app.monitor;

import io.gpuforge.app.host.HostAccess;
import io.gpuforge.domain.passthrough.ApplyOutcome;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.GpuTarget;
import io.gpuforge.domain.telemetry.SourceKind;
import io.gpuforge.host.apply.ApplyException;
import io.gpuforge.host.apply.HostConfigurator;
import io.gpuforge.host.HostShell;
import io.gpuforge.host.ProbeException;
import io.gpuforge.telemetry.Nvml;
import io.gpuforge.telemetry.NvmlSource;
import io.gpuforge.telemetry.PowerLimits;
import io.gpuforge.telemetry.SourceException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * Setting a GPU's power limit for {@link TelemetryService}: NVML on this computer, {@code nvidia-smi -pl} over SSH
 * (sudo when not root), the Demo lab's simulation; kept after reboots by a systemd unit applied through the journaled
 * plan machinery, and rolled back by its journal id. Blocking: off the FX thread.
 */
final class PowerLimitControl {

    private final TelemetrySources sources;
    private final DemoSimulations demo;
    private final Clock clock;

    PowerLimitControl(TelemetrySources sources, DemoSimulations demo, Clock clock) {
        this.sources = sources;
        this.demo = demo;
        this.clock = clock;
    }

    TelemetryService.PowerLimitResult set(GpuTarget target, GpuSample now, double watts, boolean persist)
            throws TelemetryService.Failure {
        Optional<String> refusal = TelemetryService.powerLimit(now).refuse(watts);
        if (refusal.isPresent()) {
            throw new TelemetryService.Failure(refusal.get());
        }
        if (demo.simulates(now.gpu())) {
            demo.setPowerLimit(now.gpu(), watts);
            return new TelemetryService.PowerLimitResult(now.gpu(), watts, "simulated (Demo lab)", Optional.empty(),
                    Optional.empty());
        }
        try (HostAccess.Opened host = sources.shellFor(target)) {
            HostShell shell = host.shell();
            boolean sudo = host.sudo();
            String how;
            if (now.source() == SourceKind.NVML) {
                try (NvmlSource nvml = new NvmlSource(Nvml.load(sources.tools().nvmlLibrary()), "local")) {
                    nvml.setPowerLimit(now.gpu().device(), watts);
                }
                how = "NVML";
            } else {
                PowerLimits.set(shell, now.gpu().device(), watts, sudo);
                how = PowerLimits.command(now.gpu().device(), watts, sudo);
            }
            if (!persist) {
                return new TelemetryService.PowerLimitResult(now.gpu(), watts, how, Optional.empty(), Optional.empty());
            }
            PassthroughPlan plan = persistentPlan(shell, now.gpu().device(), watts);
            String diff = plan.edits().stream().map(PassthroughPlan.FileEdit::diff).reduce("", String::concat);
            ApplyOutcome o = new HostConfigurator(shell, host.sysroot(), sudo, clock).apply(plan);
            return new TelemetryService.PowerLimitResult(now.gpu(), watts, how, Optional.of(diff),
                    Optional.of(o.journalId() + " (" + o.status().name().toLowerCase(Locale.ROOT) + ")"));
        } catch (SourceException | ProbeException | ApplyException | IllegalArgumentException e) {
            throw new TelemetryService.Failure(e.getMessage(), e);
        }
    }

    String persistentPlan(GpuTarget target, GpuSample now, double watts) throws TelemetryService.Failure {
        if (demo.simulates(now.gpu())) {
            throw new TelemetryService.Failure("The Demo lab's GPUs are simulated: a limit set there lasts until"
                    + " GPUForge quits, and there is no host to keep it on");
        }
        try (HostAccess.Opened host = sources.shellFor(target)) {
            return persistentPlan(host.shell(), now.gpu().device(), watts).edits().stream()
                    .map(PassthroughPlan.FileEdit::diff).reduce("", String::concat);
        } catch (ProbeException | IllegalArgumentException e) {
            throw new TelemetryService.Failure(e.getMessage(), e);
        }
    }

    String rollBack(GpuTarget target, String journalId) throws TelemetryService.Failure {
        try (HostAccess.Opened host = sources.shellFor(target)) {
            ApplyOutcome o = new HostConfigurator(host.shell(), host.sysroot(), host.sudo(), clock)
                    .rollback(Optional.of(journalId));
            return o.journalId() + " (" + o.status().name().toLowerCase(Locale.ROOT) + ")";
        } catch (ApplyException | IllegalArgumentException e) {
            throw new TelemetryService.Failure(e.getMessage(), e);
        }
    }

    private static PassthroughPlan persistentPlan(HostShell shell, String device, double watts) throws ProbeException {
        HostShell.Result cur = shell.run("cat " + PowerLimits.unitPath(device) + " 2>/dev/null", new byte[0],
                Duration.ofSeconds(10));
        Optional<String> current = cur.exitCode() == 0 ? Optional.of(new String(cur.stdout(), StandardCharsets.UTF_8))
                : Optional.empty();
        return PowerLimits.persistentPlan(shell.describe(), device, watts, current);
    }
}
