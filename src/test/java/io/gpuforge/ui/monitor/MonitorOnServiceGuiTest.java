package io.gpuforge.ui.monitor;

import static io.gpuforge.ui.monitor.MonitorFixture.onFx;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.testing.CliProcess;
import io.gpuforge.testing.GuiWindow;
import io.gpuforge.testing.Screenshots;
import java.util.List;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;

/**
 * The GPU monitor while a real {@code gpuforge serve} process samples the same GPUs into the same store (the user
 * service's case): the window reads the service's readings from the store instead of sampling a second time, and
 * says so; once the service stops, it samples by itself again.
 */
@Tag("ui")
class MonitorOnServiceGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private MonitorFixture fx;

    @Start
    void start(Stage stage) throws Exception {
        fx = WINDOW.closing(new MonitorFixture(stage, ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
    }

    @Test
    void theMonitorReadsARunningServicesHistoryAndSamplesAgainWhenItStops(FxRobot robot) throws Exception {
        CliProcess cli = new CliProcess(fx.home.resolve("user"), fx.home.resolve("home"));
        CliProcess.Running serve = cli.start(List.of(), "serve");
        try {
            MonitorFixture.waitUntil(() -> serve.out().contains("watching 6 GPUs"));
            MonitorFixture.waitUntil(() -> java.nio.file.Files.exists(fx.app.paths().dataDir().resolve("serve.json")));
            GpuMonitor m = fx.open(robot);
            MonitorFixture.waitUntil(() -> fx.app.fleet().service().isPresent());
            Label banner = robot.lookup("#monitor-service").queryAs(Label.class);
            MonitorFixture.waitUntil(() -> onFx(banner::isVisible));
            assertThat(onFx(banner::getText)).contains("gpuforge serve (process " + serve.pid() + ",")
                    .contains("does not sample the same GPUs a second time");
            // the readings move, and they are the service's: this process has stored none
            FleetGpu gpu = fx.demoGpus().get(0);
            long first = fx.app.fleet().latest(gpu.id()).orElseThrow().timeMillis();
            MonitorFixture.waitUntil(() -> fx.app.fleet().latest(gpu.id()).orElseThrow().timeMillis() > first);
            GpuChartsView charts = m.charts();
            MonitorFixture.waitUntil(() -> charts.data().lines(ChartKind.TEMPERATURE).stream()
                    .anyMatch(s -> s.size() >= 3));
            assertThat(fx.app.fleet().samplesRead()).isPositive();
            assertThat(fx.app.telemetry().history().samplesWritten()).as("the window sampled nothing itself").isZero();
            Screenshots.writePng(Screenshots.snapshot(m.stage().getScene()), "monitor-on-service-light-en.png");

            CliProcess.Result end = serve.terminate();
            assertThat(end.exit()).as(end.err()).isZero();
            assertThat(end.out()).contains("stored by this run");
            MonitorFixture.waitUntil(() -> fx.app.fleet().service().isEmpty()
                    && fx.app.telemetry().history().samplesWritten() > 0);
            MonitorFixture.waitUntil(() -> !onFx(banner::isVisible));
            long own = fx.app.fleet().latest(gpu.id()).orElseThrow().timeMillis();
            MonitorFixture.waitUntil(() -> fx.app.fleet().latest(gpu.id()).orElseThrow().timeMillis() > own);
        } finally {
            serve.close();
        }
    }
}
