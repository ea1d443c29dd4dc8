package io.gpuforge.app.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.telemetry.AlertEvent;
import io.gpuforge.domain.telemetry.AlertRule;
import io.gpuforge.domain.tasks.AppEvent;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.GpuTarget;
import io.gpuforge.testing.TestContexts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The monitor's fleet over the Demo lab's simulated sensors, through the real app context. */
class GpuFleetTest {

    @TempDir
    Path home;

    private AppContext app;
    private ConnectionInfo demo;

    @BeforeEach
    void open() throws Exception {
        app = TestContexts.create(home, home.resolve("no-sysroot"), ThemeChoice.LIGHT, LanguageChoice.ENGLISH);
        demo = app.connections().addDemo("Demo lab");
    }

    @AfterEach
    void close() {
        app.close();
    }

    private static void await(String what, BooleanSupplier done) throws InterruptedException {
        io.gpuforge.testing.Eventually.until(what, Duration.ofSeconds(30), done);
    }

    private static boolean live(GpuFleet fleet) {
        List<FleetGpu> rows = fleet.gpus();
        return rows.size() >= 6 && rows.stream().filter(r -> r.connection().equals("Demo lab"))
                .allMatch(r -> fleet.latest(r.id()).isPresent());
    }

    @Test
    void everyDemoLabGpuIsListedWithItsHostVmAndLiveReadings() throws Exception {
        GpuFleet fleet = app.fleet();
        try (GpuFleet.Subscription sub = fleet.subscribe(() -> { })) {
            await("readings of every GPU", () -> live(fleet));
            List<FleetGpu> rows = fleet.gpus().stream().filter(r -> r.connection().equals("Demo lab")).toList();
            assertThat(rows).extracting(FleetGpu::host).containsOnly("pve-4090", "pve-3090");
            assertThat(rows).filteredOn(r -> r.host().equals("pve-4090")).hasSize(2)
                    .allSatisfy(r -> assertThat(r.model()).contains("4090"));
            assertThat(rows).filteredOn(r -> r.host().equals("pve-3090")).hasSize(4)
                    .allSatisfy(r -> assertThat(r.model()).contains("3090"));
            FleetGpu used = rows.stream().filter(r -> r.vm().isPresent()).findFirst().orElseThrow();
            assertThat(used.vm()).contains("train-01");
            assertThat(used.address()).contains("0000:01:00.0");
            assertThat(used.availability()).isIn(FleetGpu.Availability.IN_USE, FleetGpu.Availability.ASSIGNED);
            GpuSample s = fleet.latest(used.id()).orElseThrow();
            assertThat(s.get(GpuMetric.TEMPERATURE_C).getAsDouble()).isBetween(20.0, 95.0);
            assertThat(s.source().label()).contains("simulated");
            assertThat(fleet.sources()).anySatisfy(src -> assertThat(src.status()).isPresent());
            await("several readings", () -> fleet.recent(used.id(), 0).size() >= 3);
        }
    }

    /**
     * The Proxmox API's PCI listing has no driver: the fleet takes it from each node's host (the Demo lab's simulated
     * ones), and shows the RTX 3090 that container 201 has the old way as shared, by whom, and how.
     */
    @Test
    void everyDemoLabGpuHasItsDriverAndTheSharedOneItsContainers() throws Exception {
        GpuFleet fleet = app.fleet();
        try (GpuFleet.Subscription sub = fleet.subscribe(() -> { })) {
            await("the Demo lab's GPUs", () -> fleet.gpus().stream().filter(r -> r.connection().equals("Demo lab"))
                    .count() >= 6);
            List<FleetGpu> rows = fleet.gpus().stream().filter(r -> r.connection().equals("Demo lab")).toList();
            assertThat(rows).as("every driver known").allSatisfy(r -> assertThat(r.driver()).isPresent());
            FleetGpu shared = rows.stream().filter(r -> r.address().equals(Optional.of("0000:04:00.0"))).findFirst()
                    .orElseThrow();
            assertThat(shared.driver()).contains("nvidia");
            assertThat(shared.availability()).isEqualTo(FleetGpu.Availability.SHARED);
            assertThat(shared.containers()).singleElement().satisfies(c -> {
                assertThat(c.vmid()).isEqualTo(201);
                assertThat(c.name()).isEqualTo("media-01");
                assertThat(c.legacy()).as("raw lxc lines").isTrue();
            });
            assertThat(rows).filteredOn(r -> !r.address().equals(Optional.of("0000:04:00.0")))
                    .allSatisfy(r -> assertThat(r.containers()).isEmpty());
        }
    }

    @Test
    void theMonitorSamplesAtTheIntervalTheSettingsGive() throws Exception {
        app.settings().update(st -> st.withSamplerIntervalMillis(3000));
        GpuFleet fleet = app.fleet();
        assertThat(fleet.interval()).isEqualTo(Duration.ofSeconds(3));
        try (GpuFleet.Subscription sub = fleet.subscribe(() -> { })) {
            await("readings of every GPU", () -> live(fleet));
            FleetGpu any = fleet.gpus().get(0);
            assertThat(fleet.latest(any.id()).orElseThrow().intervalMillis()).as("the reading says how it was taken")
                    .isEqualTo(3000);
        }
    }

    @Test
    void aPowerLimitSetThroughTheFleetIsEnforcedFromTheNextReading() throws Exception {
        GpuFleet fleet = app.fleet();
        try (GpuFleet.Subscription sub = fleet.subscribe(() -> { })) {
            await("readings of every GPU", () -> live(fleet));
            FleetGpu gpu = fleet.gpus().get(0);
            PowerLimitService power = app.telemetry().powerLimits();
            assertThatThrownBy(() -> power.set(gpu, fleet.latest(gpu.id()), 5000, false))
                    .hasMessageContaining("choose a limit in that range");
            PowerLimitService.Result r = power.set(gpu, fleet.latest(gpu.id()), 250, false);
            assertThat(r.how()).contains("simulated");
            long after = System.currentTimeMillis();
            await("a reading with the new limit", () -> fleet.recent(gpu.id(), after).stream()
                    .anyMatch(x -> x.raw(GpuMetric.POWER_LIMIT_W) == 250));
            assertThatThrownBy(() -> power.persistentPlan(gpu, fleet.latest(gpu.id()), 250))
                    .hasMessageContaining("simulated");
        }
    }

    /** Setting a limit with the CLI's call (it reads the GPUs once) reaches the watch that is already running. */
    @Test
    void aPowerLimitSetByAnotherCallerReachesTheRunningWatch() throws Exception {
        List<GpuSample> seen = new CopyOnWriteArrayList<>();
        try (TelemetryService.Watch w = app.telemetry().watch(new GpuTarget.Connection(demo), Duration.ofMillis(200),
                seen::add, st -> { })) {
            await("first readings", () -> seen.stream().anyMatch(s -> s.gpu().device().equals("0000:01:00.0")));
            app.telemetry().powerLimits().set(new GpuTarget.Connection(demo), "0000:01:00.0", 300, false);
            int before = seen.size();
            await("the running watch reads the new limit", () -> seen.subList(before, seen.size()).stream()
                    .anyMatch(s -> s.gpu().device().equals("0000:01:00.0") && s.raw(GpuMetric.POWER_LIMIT_W) == 300));
        }
    }

    @Test
    void aLostSourceLeavesGapsAndFiresItsAlertOnceThenClears() throws Exception {
        AlertRule lost = app.alerts().save(AlertRule.of(Optional.empty(), AlertRule.Kind.SOURCE_LOST, 0,
                Duration.ZERO));
        List<AlertEvent> alerts = new CopyOnWriteArrayList<>();
        app.alerts().addListener(alerts::add);
        List<AppEvent> events = new CopyOnWriteArrayList<>();
        app.events().addListener(events::add);
        GpuFleet fleet = app.fleet();
        try (GpuFleet.Subscription sub = fleet.subscribe(() -> { })) {
            await("readings of every GPU", () -> live(fleet));
            FleetGpu gpu = fleet.gpus().get(0);
            long unplugged = System.currentTimeMillis();
            assertThat(app.telemetry().simulateSensorLoss(true)).isEqualTo(6);
            await("an alert per GPU", () -> alerts.size() >= 6);
            await("a gap marker", () -> fleet.recent(gpu.id(), unplugged).stream().anyMatch(GpuSample::isGap));
            await("a second failed try", () -> fleet.recent(gpu.id(), unplugged).stream().filter(GpuSample::isGap)
                    .count() >= 2);
            assertThat(alerts).as("one alert per GPU however many gaps").hasSize(6)
                    .allSatisfy(a -> assertThat(a.rule()).isEqualTo(lost))
                    .allSatisfy(a -> assertThat(a.state()).isEqualTo(AlertEvent.State.FIRED));
            await("the events panel's lines", () -> events.stream().filter(e -> e.level() == AppEvent.Level.WARN
                    && e.message().contains("source lost")).count() == 6);
            app.telemetry().simulateSensorLoss(false);
            await("cleared after readings again", () -> alerts.stream()
                    .filter(a -> a.state() == AlertEvent.State.CLEARED).count() == 6);
        }
    }
}
