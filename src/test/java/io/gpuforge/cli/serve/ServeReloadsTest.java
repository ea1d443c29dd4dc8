package io.gpuforge.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.monitor.GpuFleet;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.telemetry.AlertRule;
import io.gpuforge.testing.TestContexts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * While serve runs, the window adds a connection and an alert rule (here: a second context on the same store, as
 * the window is a second process): the next check reads both, and the fleet watches the new connection's GPUs; a
 * check with nothing changed restarts nothing.
 */
class ServeReloadsTest {

    @TempDir
    Path home;

    @Test
    void aConnectionAndARuleTheWindowAddsAreTakenUpWithoutARestart() throws Exception {
        try (AppContext serve = TestContexts.create(home, home.resolve("no-sysroot"), ThemeChoice.LIGHT,
                LanguageChoice.ENGLISH)) {
            GpuFleet fleet = serve.fleet();
            try (GpuFleet.Subscription s = fleet.subscribe(() -> { })) {
                ServeReloads reloads = new ServeReloads(serve);
                assertThat(reloads.check()).as("nothing changed").isFalse();
                try (AppContext window = TestContexts.create(home, home.resolve("no-sysroot"), ThemeChoice.LIGHT,
                        LanguageChoice.ENGLISH)) {
                    window.connections().addDemo("Demo lab");
                    window.alerts().save(new AlertRule(0, Optional.empty(), AlertRule.Kind.TEMPERATURE, 90,
                            Duration.ofSeconds(30), 2, true));
                }
                assertThat(reloads.check()).as("a connection was added").isTrue();
                long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (fleet.gpus().stream().noneMatch(g -> g.connection().equals("Demo lab"))
                        && System.nanoTime() < until) {
                    Thread.sleep(50);
                }
                assertThat(fleet.gpus()).filteredOn(g -> g.connection().equals("Demo lab")).hasSize(6);
                assertThat(serve.alerts().rules()).extracting(AlertRule::threshold).containsExactly(90.0);
                assertThat(reloads.check()).as("nothing changed since").isFalse();
            }
        }
    }
}
