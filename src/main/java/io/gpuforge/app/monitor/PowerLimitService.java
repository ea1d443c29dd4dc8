package io.gpuforge.app.monitor;

import io.gpuforge.app.host.HostAccess;
import io.gpuforge.domain.passthrough.ApplyOutcome;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.GpuTarget;
import io.gpuforge.domain.telemetry.PowerLimit;
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
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Setting a GPU's power limit, telemetry's job of changing a card: NVML on this computer, {@code nvidia-smi -pl} over
 * SSH (sudo when not root), the Demo lab's simulation, always within the range the GPU's reading reports; kept after
 * reboots by a systemd unit applied through the journaled plan machinery ({@code gpuforge rollback} undoes it).
 * Blocking: off the FX thread.
 */
public final class PowerLimitService {

    /** What setting a power limit did. */
    public record Result(GpuId gpu, double watts, String how, Optional<String> planDiff, Optional<String> appliedAs) {
    }

    /** One reading of each GPU of a target, waiting at most the given time (the service's own reader). */
    @FunctionalInterface
    interface Reader {
        List<GpuSample> read(GpuTarget target, Duration wait) throws TelemetryService.Failure, InterruptedException;
    }

    private final TelemetrySources sources;
    private final DemoSimulations demo;
    private final Reader reader;
    private final Clock clock;

    PowerLimitService(TelemetrySources sources, DemoSimulations demo, Reader reader, Clock clock) {
        this.sources = sources;
        this.demo = demo;
        this.reader = reader;
        this.clock = clock;
    }

    /**
     * Sets the limit of a target's GPU named by its PCI address or id, from a fresh reading. A {@code device} the
     * target does not have is an IllegalArgumentException (named wrong), not a failure to set it.
     */
    public Result set(GpuTarget target, String device, double watts, boolean persist)
            throws TelemetryService.Failure, InterruptedException {
        GpuSample now = reader.read(target, Duration.ofSeconds(10)).stream()
                .filter(s -> s.gpu().device().equalsIgnoreCase(device) || s.gpu().toString().equalsIgnoreCase(device))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("No GPU '" + device + "' there;"
                        + " 'gpuforge gpu list' shows the ids"));
        return set(target, now, watts, persist);
    }

    /** Sets the limit of a monitor row's GPU, within the range its newest reading there reports. */
    public Result set(FleetGpu gpu, Optional<GpuSample> newest, double watts, boolean persist)
            throws TelemetryService.Failure {
        GpuSample now = newest.orElseThrow(() -> new TelemetryService.Failure("No reading of " + gpu.model()
                + " on " + gpu.host() + " yet, so its allowed range is unknown; wait for its first reading"));
        return set(gpu.target().orElseThrow(() -> new TelemetryService.Failure(gpu.model()
                + " is not read by GPUForge, so its limit cannot be set here")), now, watts, persist);
    }

    /** The plan that would keep a monitor row's limit after reboots, to show before it is applied. */
    public String persistentPlan(FleetGpu gpu, Optional<GpuSample> newest, double watts)
            throws TelemetryService.Failure {
        GpuSample now = newest.orElseThrow(() -> new TelemetryService.Failure("No reading of " + gpu.model()
                + " yet"));
        return persistentPlan(gpu.target().orElseThrow(() -> new TelemetryService.Failure(gpu.model()
                + " is not read by GPUForge")), now, watts);
    }

    /**
     * Sets the power limit of the GPU of a recent sample {@code now} (no second reading), within the range that
     * sample reports; with {@code persist} a systemd unit keeps it after reboots.
     */
    public Result set(GpuTarget target, GpuSample now, double watts, boolean persist)
            throws TelemetryService.Failure {
        Optional<String> refusal = PowerLimit.of(now).refuse(watts);
        if (refusal.isPresent()) {
            throw new TelemetryService.Failure(refusal.get());
        }
        if (demo.simulates(now.gpu())) {
            demo.setPowerLimit(now.gpu(), watts);
            return new Result(now.gpu(), watts, "simulated (Demo lab)", Optional.empty(),
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
                return new Result(now.gpu(), watts, how, Optional.empty(), Optional.empty());
            }
            PassthroughPlan plan = persistentPlan(shell, now.gpu().device(), watts);
            String diff = plan.edits().stream().map(PassthroughPlan.FileEdit::diff).reduce("", String::concat);
            ApplyOutcome o = new HostConfigurator(shell, host.sysroot(), sudo, clock).apply(plan);
            return new Result(now.gpu(), watts, how, Optional.of(diff),
                    Optional.of(o.journalId() + " (" + o.status().name().toLowerCase(Locale.ROOT) + ")"));
        } catch (SourceException | ProbeException | ApplyException | IllegalArgumentException e) {
            throw new TelemetryService.Failure(e.getMessage(), e);
        }
    }

    /**
     * The plan that would keep {@code watts} after reboots (the systemd unit's diff), for the user to see before
     * {@code persist}; nothing is changed. The Demo lab has no host to install it on.
     */
    public String persistentPlan(GpuTarget target, GpuSample now, double watts) throws TelemetryService.Failure {
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

    private static PassthroughPlan persistentPlan(HostShell shell, String device, double watts) throws ProbeException {
        HostShell.Result cur = shell.run("cat " + PowerLimits.unitPath(device) + " 2>/dev/null", new byte[0],
                Duration.ofSeconds(10));
        Optional<String> current = cur.exitCode() == 0 ? Optional.of(new String(cur.stdout(), StandardCharsets.UTF_8))
                : Optional.empty();
        return PowerLimits.persistentPlan(shell.describe(), device, watts, current);
    }
}
