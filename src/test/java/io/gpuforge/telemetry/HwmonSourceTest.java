package io.gpuforge.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.host.HostShell;
import io.gpuforge.host.LocalShell;
import io.gpuforge.testing.SharedFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** amdgpu hwmon against the real sysfs trees in the fixtures, laid out as a host's / (a sysroot). */
class HwmonSourceTest {

    @TempDir
    Path root;

    private Path sysroot(String fixture) throws IOException {
        Path src = SharedFixtures.dir().resolve("hwmon/" + fixture);
        if (!Files.isDirectory(src)) {
            SharedFixtures.read("hwmon/" + fixture + "/missing");
        }
        Path drm = root.resolve("sys/class/drm");
        try (Stream<Path> all = Files.walk(src)) {
            for (Path p : all.toList()) {
                Path to = drm.resolve(src.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        return root;
    }

    @Test
    void vega56ReadsTemperaturesPowerCapFanClocksAndMemory() throws Exception {
        List<GpuSample> s = HwmonSource.local(sysroot("03-vega56-gfx9-lact"), "sysroot", Optional.empty()).poll(1000, 1000);
        assertThat(s).hasSize(1);
        GpuSample g = s.get(0);
        assertThat(g.gpu().device()).isEqualTo("0000:0b:00.0");
        assertThat(g.get(GpuMetric.TEMPERATURE_C)).hasValue(38);
        assertThat(g.get(GpuMetric.MEMORY_TEMPERATURE_C)).hasValue(39);
        assertThat(g.get(GpuMetric.SLOWDOWN_TEMP_C)).hasValue(85);
        assertThat(g.get(GpuMetric.SHUTDOWN_TEMP_C)).hasValue(90);
        assertThat(g.get(GpuMetric.POWER_W)).hasValue(8);
        assertThat(g.get(GpuMetric.POWER_LIMIT_W)).hasValue(260);
        assertThat(g.get(GpuMetric.POWER_MAX_LIMIT_W)).hasValue(390);
        assertThat(g.get(GpuMetric.FAN_PCT)).hasValue(0);
        assertThat(g.get(GpuMetric.SM_CLOCK_MHZ)).hasValue(26);
        assertThat(g.get(GpuMetric.MEMORY_CLOCK_MHZ)).hasValue(167);
        assertThat(g.get(GpuMetric.UTILIZATION_PCT)).hasValue(0);
        assertThat(g.get(GpuMetric.MEMORY_USED_MIB).getAsDouble()).isCloseTo(16613376 / 1048576.0, within(1e-9));
        assertThat(g.get(GpuMetric.MEMORY_TOTAL_MIB).getAsDouble()).isCloseTo(8573157376L / 1048576.0, within(1e-9));
        assertThat(g.name()).isEqualTo("AMD GPU 1002:687f");
    }

    @Test
    void anApuWithBothPowerFilesAndNoCapOrFan() throws Exception {
        GpuSample g = HwmonSource.local(sysroot("06-phoenix1-apu-lenovo-lact"), "sysroot", Optional.empty())
                .poll(1000, 1000).get(0);
        assertThat(g.get(GpuMetric.POWER_W).getAsDouble()).as("power1_average first").isCloseTo(3.103, within(1e-9));
        assertThat(g.get(GpuMetric.TEMPERATURE_C)).hasValue(25);
        assertThat(g.get(GpuMetric.POWER_LIMIT_W)).isEmpty();
        assertThat(g.get(GpuMetric.FAN_PCT)).isEmpty();
        assertThat(g.get(GpuMetric.MEMORY_TEMPERATURE_C)).isEmpty();
        assertThat(g.get(GpuMetric.SM_CLOCK_MHZ)).hasValue(800);
    }

    @Test
    void aHostWithoutAmdGpusSaysSo() {
        assertThatThrownBy(() -> HwmonSource.local(root, "sysroot", Optional.empty()).poll(0, 1000))
                .isInstanceOf(SourceException.class).hasMessageContaining("no AMD GPU");
    }

    @Test
    void theOneRoundTripListingIsReadLikeTheTree() throws Exception {
        Path r = sysroot("03-vega56-gfx9-lact");
        HostShell.Result res = new LocalShell().run("sh -s '" + r + "'",
                HwmonSource.SCRIPT.getBytes(), Duration.ofSeconds(20));
        GpuSample viaScript = new HwmonSource(() -> HwmonSource.parseListing(new String(res.stdout())), "x",
                Optional.empty(), "x").poll(1000, 1000).get(0);
        GpuSample viaTree = HwmonSource.local(r, "x", Optional.empty()).poll(1000, 1000).get(0);
        assertThat(viaScript.readings()).isEqualTo(viaTree.readings());
    }
}
