package io.gpuforge.ui.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.store.TelemetryStore;
import io.gpuforge.telemetry.SimulatedGpuSource;
import io.gpuforge.testing.GuiWindow;
import io.gpuforge.testing.Screenshots;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * PNGs of the monitor's charts, fleet and cost view, light and dark, over an hour of the Demo lab's simulated
 * history (with a three-minute gap on one GPU) plus its live readings; checks what a user sees in them.
 */
@Tag("ui")
class MonitorScreenshotTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private MonitorFixture fx;

    /** An hour of the simulation's own readings for the Demo lab's six cards, as if the monitor had been open. */
    private void anHourOfHistory() throws Exception {
        List<SimulatedGpuSource.Card> cards = new ArrayList<>();
        String[] addresses = {"0000:01:00.0", "0000:02:00.0"};
        for (String a : addresses) {
            cards.add(SimulatedGpuSource.card("pve-4090", a, "NVIDIA GeForce RTX 4090", Optional.empty()));
        }
        for (int i = 1; i <= 4; i++) {
            cards.add(SimulatedGpuSource.card("pve-3090", "0000:0" + i + ":00.0", "NVIDIA GeForce RTX 3090",
                    Optional.empty()));
        }
        TelemetryStore store = new TelemetryStore(fx.app.database(), Clock.systemUTC(),
                TelemetryStore.Retention.defaults());
        try (SimulatedGpuSource sim = new SimulatedGpuSource("demo:Demo lab", cards, 7)) {
            long now = System.currentTimeMillis();
            List<GpuSample> all = new ArrayList<>();
            for (long t = now - 3_600_000; t < now - 5_000; t += 1000) {
                boolean lost = t > now - 1_500_000 && t < now - 1_320_000;
                for (GpuSample s : sim.poll(t, 1000)) {
                    if (lost && s.gpu().device().equals("0000:02:00.0") && s.gpu().host().endsWith("pve-3090")) {
                        if (t - (now - 1_500_000) < 1000) {
                            all.add(GpuSample.gap(s.gpu(), t, s.source(), s.name(), 1000));
                        }
                        continue;
                    }
                    all.add(s);
                }
            }
            store.append(all);
            store.flush();
        }
    }

    @ParameterizedTest
    @CsvSource({"LIGHT, light-en, ENGLISH", "DARK, dark-en, ENGLISH", "LIGHT, light-zh-CN, CHINESE_SIMPLIFIED",
        "DARK, dark-zh-CN, CHINESE_SIMPLIFIED"})
    void monitorFleetAndCost(ThemeChoice theme, String suffix, LanguageChoice language, FxRobot robot)
            throws Exception {
        Stage stage = FxToolkit.registerPrimaryStage();
        robot.interact(() -> {
            try {
                fx = WINDOW.closing(new MonitorFixture(stage, theme, language));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        anHourOfHistory();
        GpuMonitor m = fx.open(robot);
        robot.interact(() -> robot.lookup("#window-1h").queryAs(ToggleButton.class).fire());
        // the hour's history, not only the five minutes the monitor opened on (the 1-h window is read in the
        // background: its lines replace those of the 5-min window when they arrive)
        long hourAgo = System.currentTimeMillis() - 3_600_000;
        MonitorFixture.waitUntil(() -> MonitorFixture.onFx(() -> {
            List<ChartSeries> lines = m.charts().data().lines(ChartKind.TEMPERATURE);
            return lines.size() == 6 && lines.get(0).size() > 200 && lines.get(0).time(0) < hourAgo + 600_000;
        }));
        MonitorFixture.waitUntil(() -> fx.ui.taskMonitor().running() == 0);
        WaitForAsyncUtils.waitForFxEvents();
        BufferedImage charts = Screenshots.snapshot(m.stage().getScene());
        write(charts, "monitor-" + suffix + ".png");
        assertThat(m.charts().data().lines(ChartKind.TEMPERATURE).get(3).size()).isPositive();

        robot.interact(() -> m.tabs().getSelectionModel().select(1));
        MonitorFixture.waitUntil(() -> m.fleet().rows().size() == 6 && m.fleet().rows().stream()
                .allMatch(r -> r.utilization().get().minute().length >= 3));
        WaitForAsyncUtils.waitForFxEvents();
        // the State column's words whole ("assig..." / "已分..." before; issue 61, step 3)
        List<String> cut = MonitorFixture.onFx(() -> m.fleet().table().lookupAll(".table-cell").stream()
                .map(n -> (javafx.scene.control.TableCell<?, ?>) n)
                .filter(c -> c.isVisible() && c.getTableColumn() != null && c.getTableColumn().getId() != null
                        && c.getTableColumn().getId().equals("fleet-col-state") && c.getText() != null
                        && c.lookup(".text") instanceof javafx.scene.text.Text t && !t.getText().equals(c.getText()))
                .map(c -> c.getText()).toList());
        assertThat(cut).as("state cells shown cut").isEmpty();
        write(Screenshots.snapshot(m.stage().getScene()), "fleet-" + suffix + ".png");

        robot.interact(() -> m.tabs().getSelectionModel().select(2));
        WaitForAsyncUtils.waitForFxEvents();
        write(Screenshots.snapshot(m.stage().getScene()), "alerts-" + suffix + ".png");

        robot.interact(() -> m.tabs().getSelectionModel().select(3));
        robot.interact(() -> {
            robot.lookup("#cost-currency").queryAs(TextField.class).setText("CNY");
            robot.lookup("#cost-price").queryAs(TextField.class).setText("0.60");
            robot.lookup("#cost-hardware").queryAs(TextField.class).setText("15000");
            robot.lookup("#cost-gpus").queryAs(TextField.class).setText("1");
            robot.lookup("#cost-years").queryAs(TextField.class).setText("3");
            robot.lookup("#cost-cloud").queryAs(TextField.class).setText("8");
            robot.lookup("#cost-save").queryAs(Button.class).fire();
        });
        String cloud = fx.ui.i18n().get("monitor.cost.dearer", "\u0000", "").split("\u0000")[0];
        try {
            MonitorFixture.waitUntil(() -> m.cost().table().getItems().size() > 6
                    && robot.lookup("#cost-summary").queryAs(Label.class).getText().contains("¥13.70")
                    && robot.lookup("#cost-summary").queryAs(Label.class).getText().contains(cloud));
        } catch (TimeoutException e) {
            throw new AssertionError("cost view: " + m.cost().table().getItems().size() + " rows, summary '"
                    + robot.lookup("#cost-summary").queryAs(Label.class).getText() + "', error '"
                    + robot.lookup("#cost-error").queryAs(Label.class).getText() + "'", e);
        }
        String gpu = fx.ui.i18n().get("monitor.cost.scope.gpu");
        if (language == LanguageChoice.ENGLISH) {
            assertThat(robot.lookup("#cost-summary").queryAs(Label.class).getText()).contains("¥13.70 per GPU-day");
        }
        assertThat(m.cost().table().getItems()).extracting(CostView.Row::scope).contains(gpu,
                fx.ui.i18n().get("monitor.cost.scope.node"), fx.ui.i18n().get("monitor.cost.scope.total"));
        // the four RTX 3090 of one node are told apart by their addresses
        assertThat(m.cost().table().getItems()).filteredOn(r -> r.scope().equals(gpu)).extracting(CostView.Row::name)
                .hasSize(6).doesNotHaveDuplicates().contains("RTX 3090 · pve-3090 01:00.0", "RTX 4090 · pve-4090 02:00.0");
        assertThat(fx.app.costs().profile().hardwarePrice()).as("saved").isEqualTo(15_000);
        Path csv = fx.home.resolve("cost.csv");
        robot.interact(() -> m.cost().export(csv));
        MonitorFixture.waitUntil(() -> Files.exists(csv));
        assertThat(Files.readAllLines(csv).get(0)).startsWith("scope,key,label");
        WaitForAsyncUtils.waitForFxEvents();
        BufferedImage cost = Screenshots.snapshot(m.stage().getScene());
        write(cost, "cost-" + suffix + ".png");

        double luminance = meanLuminance(charts);
        if (theme == ThemeChoice.DARK) {
            assertThat(luminance).as("dark theme looks dark").isLessThan(0.35);
        } else {
            assertThat(luminance).as("light theme looks light").isGreaterThan(0.7);
        }
    }

    private static void write(BufferedImage img, String name) throws Exception {
        assertThat(img.getWidth()).isGreaterThan(800);
        Screenshots.writePng(img, name);
    }

    private static double meanLuminance(BufferedImage img) {
        double sum = 0;
        int n = 0;
        for (int y = 0; y < img.getHeight(); y += 4) {
            for (int x = 0; x < img.getWidth(); x += 4) {
                int rgb = img.getRGB(x, y);
                sum += (0.2126 * ((rgb >> 16) & 0xff) + 0.7152 * ((rgb >> 8) & 0xff) + 0.0722 * (rgb & 0xff)) / 255;
                n++;
            }
        }
        return sum / n;
    }
}
