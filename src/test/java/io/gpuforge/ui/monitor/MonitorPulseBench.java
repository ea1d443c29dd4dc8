package io.gpuforge.ui.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.telemetry.FleetGpu;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javafx.animation.AnimationTimer;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The longest gap between two FX pulses while 132 GPUs (22 Demo labs of 6 simulated cards) stream at 1 Hz into the
 * open monitor, its charts (8 GPUs) shown and then its fleet table, against the same window idle. Writes
 * target/bench/monitor-pulse.json. Run with {@code mvn -o -B verify -Pbench -Dtest='Monitor*Bench*'}.
 */
@Tag("bench")
@ExtendWith(ApplicationExtension.class)
class MonitorPulseBench {

    private static final int LABS = 22;
    private static final long MEASURE_MILLIS = 20_000;

    /**
     * Records the longest interval between consecutive pulses, and the most CPU time the FX thread spent between
     * two pulses: on a machine loaded by other work the wall-clock gap measures the load as much as the window.
     */
    private static final class PulseGaps extends AnimationTimer {
        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        private long last;
        private long lastCpu;
        private long longest;
        private long longestCpu;
        private long frames;

        @Override
        public void handle(long now) {
            long cpu = threads.getCurrentThreadCpuTime();
            if (last != 0) {
                longest = Math.max(longest, now - last);
                longestCpu = Math.max(longestCpu, cpu - lastCpu);
                frames++;
            }
            last = now;
            lastCpu = cpu;
        }
    }

    private static double[] measure(FxRobot robot) throws Exception {
        PulseGaps gaps = new PulseGaps();
        robot.interact(gaps::start);
        Thread.sleep(MEASURE_MILLIS);
        robot.interact(gaps::stop);
        return new double[] {gaps.longest / 1e6, gaps.frames, gaps.longestCpu / 1e6};
    }

    @Test
    void longestPulseWhile132GpusStream(FxRobot robot) throws Exception {
        Stage stage = FxToolkit.registerPrimaryStage();
        MonitorFixture[] fx = new MonitorFixture[1];
        robot.interact(() -> {
            try {
                fx[0] = new MonitorFixture(stage, ThemeChoice.LIGHT, LanguageChoice.ENGLISH);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            for (int i = 2; i <= LABS; i++) {
                fx[0].app.connections().addDemo("Demo lab " + i);
            }
            double[] idle = measure(robot);
            GpuMonitor[] m = new GpuMonitor[1];
            robot.interact(() -> m[0] = GpuMonitor.open(fx[0].ui, stage));
            WaitForAsyncUtils.waitFor(300, TimeUnit.SECONDS, () -> {
                List<FleetGpu> all = fx[0].app.fleet().gpus();
                return all.size() >= LABS * 6 && all.stream().allMatch(g -> fx[0].app.fleet().latest(g.id())
                        .isPresent());
            });
            int gpus = fx[0].app.fleet().gpus().size();
            WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> m[0].charts().chosen().size() == 8);
            double[] charts = measure(robot);
            robot.interact(() -> m[0].tabs().getSelectionModel().select(1));
            WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> m[0].fleet().rows().size() == gpus);
            double[] fleet = measure(robot);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("benchmark", "monitor-longest-pulse");
            out.put("gpus_streaming_1hz", gpus);
            out.put("measured_ms_each", MEASURE_MILLIS);
            out.put("idle_longest_pulse_gap_ms", idle[0]);
            out.put("idle_longest_pulse_fx_cpu_ms", idle[2]);
            out.put("idle_frames", idle[1]);
            out.put("charts_longest_pulse_gap_ms", charts[0]);
            out.put("charts_longest_pulse_fx_cpu_ms", charts[2]);
            out.put("charts_frames", charts[1]);
            out.put("fleet_longest_pulse_gap_ms", fleet[0]);
            out.put("fleet_longest_pulse_fx_cpu_ms", fleet[2]);
            out.put("fleet_frames", fleet[1]);
            out.put("machine_load_average", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            out.put("ratio_charts_vs_idle", Math.round(100.0 * charts[0] / idle[0]) / 100.0);
            out.put("ratio_fleet_vs_idle", Math.round(100.0 * fleet[0] / idle[0]) / 100.0);
            Path dir = Path.of("target/bench");
            Files.createDirectories(dir);
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValue(dir.resolve("monitor-pulse.json").toFile(), out);
            assertThat(gpus).isGreaterThanOrEqualTo(128);
        } finally {
            FxToolkit.cleanupStages();
            fx[0].close();
        }
    }
}
