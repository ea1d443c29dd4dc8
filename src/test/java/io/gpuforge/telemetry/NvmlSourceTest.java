package io.gpuforge.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.sun.jna.Function;
import com.sun.jna.NativeLibrary;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.testing.Tools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JNA binding against a stub libnvidia-ml.so built from C (src/test/native) during the test run. */
class NvmlSourceTest {

    private static final int TEMP = 0;
    private static final int SHUT = 1;
    private static final int SLOW = 2;
    private static final int POWER = 3;
    private static final int LIMIT = 4;
    private static final int MINL = 5;
    private static final int MAXL = 6;
    private static final int UTIL = 7;
    private static final int MTOTAL = 9;
    private static final int MUSED = 10;
    private static final int FAN = 11;
    private static final int SM = 12;
    private static final int REASONS = 14;

    @TempDir
    static Path dir;
    private static Path current;
    private static Path old;

    @BeforeAll
    static void build() throws Exception {
        Tools.require("gcc", "gcc");
        Path src = Path.of("src/test/native/nvml_stub.c").toAbsolutePath();
        current = dir.resolve("libnvidia-ml-stub.so");
        old = dir.resolve("libnvidia-ml-stub-old.so");
        gcc(src, current, List.of());
        gcc(src, old, List.of("-DOLD_DRIVER"));
    }

    private static void gcc(Path src, Path out, List<String> defines) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("gcc", "-shared", "-fPIC", "-o", out.toString()));
        cmd.addAll(defines);
        cmd.add(src.toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as(log).isZero();
        assertThat(Files.exists(out)).isTrue();
    }

    private static void set(Path lib, int gpu, int key, long v) {
        NativeLibrary.getInstance(lib.toString()).getFunction("stub_set").invokeVoid(new Object[] {gpu, key, v});
    }

    private static void fail(Path lib, int gpu, int key, int rc) {
        NativeLibrary.getInstance(lib.toString()).getFunction("stub_fail").invokeVoid(new Object[] {gpu, key, rc});
    }

    private static void script(Path lib) {
        Function count = NativeLibrary.getInstance(lib.toString()).getFunction("stub_count");
        count.invokeVoid(new Object[] {2});
        set(lib, 0, TEMP, 61);
        set(lib, 0, SHUT, 98);
        set(lib, 0, SLOW, 93);
        set(lib, 0, POWER, 287_450);
        set(lib, 0, LIMIT, 350_000);
        set(lib, 0, MINL, 100_000);
        set(lib, 0, MAXL, 390_000);
        set(lib, 0, UTIL, 97);
        set(lib, 0, MTOTAL, 24L << 30);
        set(lib, 0, MUSED, 20L << 30);
        set(lib, 0, FAN, 75);
        set(lib, 0, SM, 1905);
        set(lib, 0, REASONS, 0x4);
        set(lib, 1, TEMP, 35);
        fail(lib, 1, POWER, 3); // not supported on this board
    }

    @Test
    void readsEveryFieldOfACurrentDriverAndLeavesAnUnsupportedOneAbsent() throws Exception {
        script(current);
        try (NvmlSource s = new NvmlSource(Nvml.load(Optional.of(current.toString())), "local")) {
            List<GpuSample> g = s.poll(1000, 1000);
            assertThat(g).hasSize(2);
            GpuSample a = g.get(0);
            assertThat(a.gpu().device()).isEqualTo("GPU-00000000-aaaa-bbbb-cccc-dddddddddddd");
            assertThat(a.name()).isEqualTo("NVIDIA GeForce RTX 3090");
            assertThat(a.get(GpuMetric.TEMPERATURE_C)).hasValue(61);
            assertThat(a.get(GpuMetric.SHUTDOWN_TEMP_C)).hasValue(98);
            assertThat(a.get(GpuMetric.SLOWDOWN_TEMP_C)).hasValue(93);
            assertThat(a.get(GpuMetric.POWER_W).getAsDouble()).isCloseTo(287.45, within(1e-9));
            assertThat(a.get(GpuMetric.POWER_LIMIT_W)).hasValue(350);
            assertThat(a.get(GpuMetric.POWER_MIN_LIMIT_W)).hasValue(100);
            assertThat(a.get(GpuMetric.POWER_MAX_LIMIT_W)).hasValue(390);
            assertThat(a.get(GpuMetric.UTILIZATION_PCT)).hasValue(97);
            assertThat(a.get(GpuMetric.MEMORY_USED_MIB)).hasValue(20480);
            assertThat(a.get(GpuMetric.MEMORY_TOTAL_MIB)).hasValue(24576);
            assertThat(a.get(GpuMetric.FAN_PCT)).hasValue(75);
            assertThat(a.get(GpuMetric.SM_CLOCK_MHZ)).hasValue(1905);
            assertThat(a.get(GpuMetric.THROTTLE_REASONS)).hasValue(4);
            assertThat(g.get(1).get(GpuMetric.POWER_W)).as("NVML_ERROR_NOT_SUPPORTED").isEmpty();
            assertThat(g.get(1).get(GpuMetric.TEMPERATURE_C)).hasValue(35);
        }
    }

    @Test
    void anOlderDriverWithoutSomeSymbolsStillReadsTheRest() throws Exception {
        script(old);
        try (NvmlSource s = new NvmlSource(Nvml.load(Optional.of(old.toString())), "local")) {
            GpuSample a = s.poll(1000, 1000).get(0);
            assertThat(a.get(GpuMetric.FAN_PCT)).as("nvmlDeviceGetFanSpeed is missing").isEmpty();
            assertThat(a.get(GpuMetric.THROTTLE_REASONS)).as("the older ThrottleReasons symbol").hasValue(4);
            assertThat(a.get(GpuMetric.TEMPERATURE_C)).hasValue(61);
        }
    }

    @Test
    void thePowerLimitIsSetThroughNvmlAndALostGpuIsReported() throws Exception {
        script(current);
        try (NvmlSource s = new NvmlSource(Nvml.load(Optional.of(current.toString())), "local")) {
            s.setPowerLimit("GPU-00000000-aaaa-bbbb-cccc-dddddddddddd", 300);
            assertThat(s.poll(1000, 1000).get(0).get(GpuMetric.POWER_LIMIT_W)).hasValue(300);
            fail(current, 0, TEMP, 15);
            assertThatThrownBy(() -> s.poll(1000, 1000)).isInstanceOf(SourceException.class)
                    .hasMessageContaining("GPU is lost");
            fail(current, 0, TEMP, 0);
        }
    }

    @Test
    void noNvmlSaysWhatToInstall() {
        assertThatThrownBy(() -> Nvml.load(Optional.of(dir.resolve("absent.so").toString())))
                .isInstanceOf(SourceException.class).hasMessageContaining("install the NVIDIA driver");
    }
}
