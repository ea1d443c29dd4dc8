package io.gpuforge.ui.monitor;

import static io.gpuforge.ui.monitor.MonitorFixture.onFx;
import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.app.settings.LanguageChoice;
import io.gpuforge.app.settings.ThemeChoice;
import io.gpuforge.domain.telemetry.AlertEvent;
import io.gpuforge.domain.telemetry.AlertRule;
import io.gpuforge.domain.tasks.AppEvent;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.SourceKind;
import io.gpuforge.store.TelemetryStore;
import io.gpuforge.testing.GuiWindow;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.stage.Stage;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The GPU monitor in the real window over the Demo lab's simulated sensors. */
@Tag("ui")
class GpuMonitorGuiTest {

    @RegisterExtension
    static final GuiWindow WINDOW = new GuiWindow();

    private MonitorFixture fx;

    @Start
    void start(Stage stage) throws Exception {
        fx = WINDOW.closing(new MonitorFixture(stage, ThemeChoice.LIGHT, LanguageChoice.ENGLISH));
    }

    private static long lastTime(ChartSeries s) {
        return s.size() == 0 ? 0 : s.lastTime();
    }

    @Test
    void theChartsShowLiveSeriesThatMoveAndPauseStopsThem(FxRobot robot) throws Exception {
        GpuMonitor m = fx.open(robot);
        GpuChartsView charts = m.charts();
        MonitorFixture.waitUntil(() -> charts.chosen().size() == 6 && charts.data().lines(ChartKind.TEMPERATURE)
                .stream().allMatch(s -> s.size() >= 3));
        ChartSeries t = charts.data().lines(ChartKind.TEMPERATURE).get(0);
        long first = lastTime(t);
        MonitorFixture.waitUntil(() -> lastTime(charts.data().lines(ChartKind.TEMPERATURE).get(0)) > first);
        assertThat(onFx(() -> charts.chart(ChartKind.TEMPERATURE).draws())).isPositive();
        // the sources are named next to the series
        assertThat(onFx(charts::legendText)).contains("simulated (Demo lab)")
                .contains("4090 · pve-4090 01:00.0");
        assertThat(onFx(() -> robot.lookup("#monitor-sources").queryAs(Label.class).getText()))
                .contains("simulated sensors");
        // a line a source, unwrapped (laid out once, not for every width tried); the whole text on hover
        Label sourcesLabel = robot.lookup("#monitor-sources").queryAs(Label.class);
        assertThat(onFx(sourcesLabel::isWrapText)).isFalse();
        assertThat(onFx(() -> sourcesLabel.getTooltip().getText())).isEqualTo(onFx(sourcesLabel::getText));
        // power with its enforced limit (dashed) per GPU
        assertThat(onFx(() -> List.copyOf(charts.data().lines(ChartKind.POWER)))).hasSize(12)
                .filteredOn(s -> s.dashed).hasSize(6);
        robot.interact(() -> robot.lookup("#monitor-pause").queryAs(ToggleButton.class).fire());
        assertThat(charts.window().isLive()).isFalse();
        // the pause reloads the window up to its time (history may hold a reading the live end had not drawn yet)
        MonitorFixture.waitUntil(() -> !onFx(charts::loading));
        WaitForAsyncUtils.waitForFxEvents();
        ChartSeries paused = charts.data().lines(ChartKind.TEMPERATURE).get(0);
        int size = paused.size();
        long pausedAt = System.currentTimeMillis();
        MonitorFixture.waitUntil(() -> fx.app.fleet().recent(charts.data().gpus().get(0).id(), pausedAt + 1500)
                .size() >= 1);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(charts.data().lines(ChartKind.TEMPERATURE).get(0).size()).as("paused: nothing appended")
                .isEqualTo(size);
        robot.interact(() -> robot.lookup("#monitor-live").queryAs(Button.class).fire());
        assertThat(charts.window().isLive()).isTrue();
    }

    /**
     * With only the live readings of the Demo lab (no history), the toolbar says every reading is drawn, counting
     * them: it used to say "Reduced to 912 points per line from 0 readings" (the chart's width, and the readings of
     * the last history read).
     */
    @Test
    void liveReadingsAloneAreSaidToBeDrawnEveryOne(FxRobot robot) throws Exception {
        fx.open(robot);
        java.util.regex.Pattern said = java.util.regex.Pattern.compile(
                "(\\d+) readings per line, every one drawn \\(raw samples\\)");
        MonitorFixture.waitUntil(() -> {
            java.util.regex.Matcher m = said.matcher(onFx(() -> robot.lookup("#monitor-status")
                    .queryAs(Label.class).getText()));
            return m.matches() && Integer.parseInt(m.group(1)) >= 2;
        });
        assertThat(onFx(() -> robot.lookup("#monitor-status").queryAs(Label.class).getText()))
                .doesNotContain("Reduced");
    }

    @Test
    void switchingWindowsLoadsHistoryReducedToTheChartsWidth(FxRobot robot) throws Exception {
        // a day of readings of the first RTX 4090, one a second, ending ten minutes ago
        GpuId gpu = new GpuId("demo:Demo lab/pve-4090", "0000:01:00.0");
        TelemetryStore store = new TelemetryStore(fx.app.database(), Clock.systemUTC(),
                TelemetryStore.Retention.defaults());
        long end = System.currentTimeMillis() - 600_000;
        List<GpuSample> day = new ArrayList<>();
        for (long s = 23 * 3600; s > 0; s--) {
            long t = end - s * 1000;
            day.add(GpuSample.builder(gpu, t, SourceKind.SIMULATED).name("NVIDIA GeForce RTX 4090")
                    .node(Optional.of("pve-4090")).intervalMillis(1000)
                    .set(GpuMetric.TEMPERATURE_C, 40 + (s % 600 < 300 ? 30 : 0)).set(GpuMetric.POWER_W, 200).build());
        }
        store.append(day);
        store.flush();
        GpuMonitor m = fx.open(robot);
        GpuChartsView charts = m.charts();
        robot.interact(() -> robot.lookup("#window-24h").queryAs(ToggleButton.class).fire());
        MonitorFixture.waitUntil(() -> charts.window().span() == Duration.ofHours(24).toMillis()
                && charts.data().line(gpu, GpuMetric.TEMPERATURE_C) != null
                && charts.data().line(gpu, GpuMetric.TEMPERATURE_C).size() > 100);
        int width = onFx(() -> charts.chart(ChartKind.TEMPERATURE).plotWidth());
        ChartSeries line = onFx(() -> charts.data().line(gpu, GpuMetric.TEMPERATURE_C));
        assertThat(onFx(line::size)).as("a day of 82,800 readings drawn as at most the width's points")
                .isLessThanOrEqualTo(width + 16);
        // the live end grows on the FX thread: the line is read there
        double[] maxMin = onFx(() -> {
            double max = 0;
            double min = 1000;
            for (int i = 0; i < line.size(); i++) {
                if (!Double.isNaN(line.value(i)) && line.time(i) < end) {
                    max = Math.max(max, line.value(i));
                    min = Math.min(min, line.value(i));
                }
            }
            return new double[] {max, min};
        });
        assertThat(maxMin[0]).as("the peaks are kept").isEqualTo(70);
        assertThat(maxMin[1]).as("the dips are kept").isEqualTo(40);
        // the toolbar says so from the next frame after the history arrived (the data is set before that frame): the
        // points the line draws (never the chart's width, never more than its readings) and the readings behind it
        java.util.regex.Pattern said = java.util.regex.Pattern.compile(
                "Reduced to (\\d+) points per line from ([\\d,]+) readings \\(raw samples\\)");
        MonitorFixture.waitUntil(() -> said.matcher(onFx(() -> robot.lookup("#monitor-status").queryAs(Label.class)
                .getText())).matches());
        java.util.regex.Matcher status = said.matcher(onFx(() -> robot.lookup("#monitor-status")
                .queryAs(Label.class).getText()));
        assertThat(status.matches()).isTrue();
        assertThat(Integer.parseInt(status.group(1))).isPositive().isLessThanOrEqualTo(width + 16);
        assertThat(Long.parseLong(status.group(2).replace(",", ""))).as("the day's readings and the live ones")
                .isGreaterThanOrEqualTo(23 * 3600 - 1);
        robot.interact(() -> robot.lookup("#window-1h").queryAs(ToggleButton.class).fire());
        MonitorFixture.waitUntil(() -> charts.window().span() == Duration.ofHours(1).toMillis());
        robot.interact(() -> charts.window().zoom(1 / 1.25, System.currentTimeMillis(), System.currentTimeMillis()));
        assertThat(charts.window().span()).isEqualTo(Duration.ofMinutes(48).toMillis());
        robot.interact(() -> charts.window().pan(-Duration.ofMinutes(30).toMillis(), System.currentTimeMillis()));
        assertThat(charts.window().isLive()).as("scrolled back").isFalse();
    }

    @Test
    void aLostSourceShowsAGapAndItsAlertFiresOnce(FxRobot robot) throws Exception {
        fx.app.alerts().save(AlertRule.of(Optional.empty(), AlertRule.Kind.SOURCE_LOST, 0, Duration.ZERO));
        List<AlertEvent> alerts = new CopyOnWriteArrayList<>();
        fx.app.alerts().addListener(alerts::add);
        GpuMonitor m = fx.open(robot);
        GpuChartsView charts = m.charts();
        MonitorFixture.waitUntil(() -> charts.data().lines(ChartKind.TEMPERATURE).size() == 6);
        fx.app.telemetry().simulateSensorLoss(true);
        MonitorFixture.waitUntil(() -> charts.data().lines(ChartKind.TEMPERATURE).stream()
                .allMatch(ChartSeries::endsInGap));
        MonitorFixture.waitUntil(() -> alerts.size() == 6 && m.notifier().shown() >= 1);
        @SuppressWarnings("unchecked")
        ListView<AppEvent> events = robot.lookup("#events-list").queryAs(ListView.class);
        MonitorFixture.waitUntil(() -> events.getItems().stream().filter(e -> e.message().contains("source lost"))
                .count() == 6);
        // the source keeps failing (gap markers at each retry): still one alert per GPU
        long later = System.currentTimeMillis();
        FleetGpu one = fx.demoGpus().get(0);
        MonitorFixture.waitUntil(() -> fx.app.fleet().recent(one.id(), later).stream().anyMatch(GpuSample::isGap));
        assertThat(alerts).hasSize(6);
        // the history gets each alert through Platform.runLater, after the listener above has it
        MonitorFixture.waitUntil(() -> onFx(() -> m.alerts().history().size()) >= 6);
        assertThat(onFx(() -> List.copyOf(m.alerts().history()))).hasSize(6).allMatch(s -> s.contains("source lost"));
        // the charts' sources say since when there is no data, why, and when it is tried again
        Label sources = robot.lookup("#monitor-sources").queryAs(Label.class);
        MonitorFixture.waitUntil(() -> onFx(sources::getText).contains("no data since "));
        assertThat(onFx(sources::getText)).containsPattern("no data since \\d\\d:\\d\\d:\\d\\d: .+ \\(trying again at "
                + "\\d\\d:\\d\\d:\\d\\d\\)");
        // the fleet shows no stale values for a lost GPU: since when it has none, and why on hover
        robot.interact(() -> m.tabs().getSelectionModel().select(1));
        MonitorFixture.waitUntil(() -> m.fleet().rows().stream().allMatch(r -> Double.isNaN(r.temperature().get())
                && r.source().get().startsWith("no data since ") && !r.problem().get().isEmpty()));
        FleetRow first = m.fleet().rows().stream().filter(r -> r.gpu().id().equals(one.id())).findFirst().orElseThrow();
        long last = fx.app.fleet().latest(one.id()).orElseThrow().timeMillis();
        assertThat(first.source().get()).isEqualTo("no data since " + java.time.format.DateTimeFormatter
                .ofPattern("HH:mm:ss").format(java.time.Instant.ofEpochMilli(last).atZone(java.time.ZoneId
                        .systemDefault())));
        fx.app.telemetry().simulateSensorLoss(false);
        MonitorFixture.waitUntil(() -> alerts.stream().filter(a -> a.state() == AlertEvent.State.CLEARED).count() == 6);
    }

    @Test
    void aTemperatureAlertFiresOnceThroughItsHysteresis(FxRobot robot) throws Exception {
        GpuMonitor m = fx.open(robot);
        FleetGpu gpu = fx.demoGpus().get(0);
        robot.interact(() -> m.tabs().getSelectionModel().select(2));
        robot.interact(() -> {
            m.alerts().refreshScopes();
            robot.lookup("#alert-threshold").queryAs(TextField.class).setText("20");
            robot.lookup("#alert-hold").queryAs(TextField.class).setText("2");
        });
        @SuppressWarnings("unchecked")
        ChoiceBox<Optional<FleetGpu>> scope = robot.lookup("#alert-scope")
                .queryAs(ChoiceBox.class);
        robot.interact(() -> scope.setValue(scope.getItems().stream().filter(o -> o.map(g -> g.id().equals(gpu.id()))
                .orElse(false)).findFirst().orElseThrow()));
        robot.interact(() -> robot.lookup("#alert-add").queryAs(Button.class).fire());
        MonitorFixture.waitUntil(() -> m.alerts().rules().size() == 1);
        assertThat(onFx(() -> m.alerts().rules().get(0).describe())).contains("temperature ≥ 20 °C for 2 s on " + gpu.id());
        MonitorFixture.waitUntil(() -> m.alerts().history().size() == 1);
        long fired = System.currentTimeMillis();
        // five more readings above the threshold: no second alert
        MonitorFixture.waitUntil(() -> fx.app.fleet().recent(gpu.id(), fired).size() >= 5);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(m.alerts().history()).singleElement().asString().contains("temperature ≥ 20 °C");
        @SuppressWarnings("unchecked")
        ListView<AppEvent> events = robot.lookup("#events-list").queryAs(ListView.class);
        assertThat(events.getItems()).filteredOn(e -> e.message().contains("temperature ≥ 20 °C")).hasSize(1);
    }

    @Test
    void thePowerLimitDialogRefusesOutOfRangeAndSetsAValidLimitSeenFromTheNextReading(FxRobot robot) throws Exception {
        GpuMonitor m = fx.open(robot);
        robot.interact(() -> m.tabs().getSelectionModel().select(1));
        MonitorFixture.waitUntil(() -> m.fleet().rows().size() == 6);
        FleetRow row = m.fleet().rows().stream().filter(r -> r.gpu().host().equals("pve-3090")).findFirst()
                .orElseThrow();
        robot.interact(() -> m.fleet().table().getSelectionModel().select(row));
        robot.interact(() -> robot.lookup("#fleet-power").queryAs(Button.class).fire());
        MonitorFixture.waitUntil(() -> robot.lookup("#power-dialog").tryQuery().isPresent());
        assertThat(robot.lookup("#power-range").queryAs(Label.class).getText()).contains("allows 116 to 466 W");
        robot.interact(() -> {
            robot.lookup("#power-watts").queryAs(TextField.class).setText("5000");
            robot.lookup("#power-set").queryAs(Button.class).fire();
        });
        assertThat(robot.lookup("#power-error").queryAs(Label.class).getText())
                .isEqualTo("5000 W is outside what the card allows (116 to 466 W); choose a limit in that range.");
        assertThat(robot.lookup("#power-confirm").queryAs(Button.class).isDisabled()).isTrue();
        robot.interact(() -> {
            robot.lookup("#power-watts").queryAs(TextField.class).setText("250");
            robot.lookup("#power-set").queryAs(Button.class).fire();
        });
        assertThat(robot.lookup("#power-confirm-text").queryAs(Label.class).getText()).contains("to 250 W now");
        robot.interact(() -> robot.lookup("#power-confirm").queryAs(Button.class).fire());
        MonitorFixture.waitUntil(() -> robot.lookup("#power-confirm-text").queryAs(Label.class).getText()
                .startsWith("Set to 250 W (simulated (Demo lab))"));
        MonitorFixture.waitUntil(() -> row.limit().get() == 250);
        assertThat(fx.app.fleet().latest(row.gpu().id()).orElseThrow().raw(GpuMetric.POWER_LIMIT_W)).isEqualTo(250);
        // keeping it after reboots needs a host: the Demo lab says why not
        robot.interact(() -> {
            robot.lookup("#power-persist").queryAs(CheckBox.class).setSelected(true);
            robot.lookup("#power-set").queryAs(Button.class).fire();
        });
        MonitorFixture.waitUntil(() -> robot.lookup("#power-error").queryAs(Label.class).getText()
                .contains("simulated"));
    }

    @Test
    void openingARowsChartsFromTheFleetShowsThatGpuAloneThoughTheChartsNeverShowedItsRows(FxRobot robot)
            throws Exception {
        // the fleet tab chosen before the Demo lab's GPUs are listed: the charts' picker never saw them
        GpuMonitor[] opened = new GpuMonitor[1];
        robot.interact(() -> {
            opened[0] = GpuMonitor.open(fx.ui, MonitorServices.of(fx.app), fx.stage);
            fx.monitor = opened[0];
            opened[0].tabs().getSelectionModel().select(1);
        });
        GpuMonitor m = opened[0];
        MonitorFixture.waitUntil(() -> onFx(() -> m.fleet().rows().size()) == 6);
        FleetRow row = onFx(() -> m.fleet().rows().get(3));
        robot.interact(() -> m.chartsOf(row.gpu()));
        MonitorFixture.waitUntil(() -> !onFx(() -> m.charts().loading()) && !onFx(() -> m.charts().chosen()).isEmpty());
        assertThat(onFx(() -> m.charts().chosen())).as("what 'open its charts' shows").containsExactly(row.gpu().id());
    }

    @Test
    void theFleetListsEveryDemoLabGpuAndFilters(FxRobot robot) throws Exception {
        GpuMonitor m = fx.open(robot);
        robot.interact(() -> m.tabs().getSelectionModel().select(1));
        MonitorFixture.waitUntil(() -> m.fleet().rows().size() == 6 && m.fleet().rows().stream()
                .allMatch(r -> !Double.isNaN(r.temperature().get())));
        assertThat(onFx(() -> List.copyOf(m.fleet().rows()))).extracting(r -> r.gpu().host() + " " + r.gpu().address().orElse(""))
                .containsExactlyInAnyOrder("pve-4090 0000:01:00.0", "pve-4090 0000:02:00.0", "pve-3090 0000:01:00.0",
                        "pve-3090 0000:02:00.0", "pve-3090 0000:03:00.0", "pve-3090 0000:04:00.0");
        FleetRow train = onFx(() -> m.fleet().rows().stream().filter(r -> r.gpu().vm().isPresent()).findFirst())
                .orElseThrow();
        assertThat(train.gpu().vm()).contains("train-01");
        // the summary follows the rows: it says "Reading the connections…" until the last connection has answered
        MonitorFixture.waitUntil(() -> onFx(() -> robot.lookup("#fleet-summary").queryAs(Label.class).getText())
                .startsWith("6 GPUs on"));
        assertThat(onFx(() -> robot.lookup("#fleet-summary").queryAs(Label.class).getText())).startsWith("6 GPUs on 1 connection, ");
        robot.interact(() -> robot.lookup("#fleet-filter").queryAs(TextField.class).setText("3090"));
        assertThat(m.fleet().table().getItems()).hasSize(4);
        robot.interact(() -> robot.lookup("#fleet-filter").queryAs(TextField.class).setText("train"));
        assertThat(m.fleet().table().getItems()).singleElement().isSameAs(train);
        robot.interact(() -> robot.lookup("#fleet-filter").queryAs(TextField.class).setText(""));
        // "open its charts" from a row
        robot.interact(() -> m.chartsOf(train.gpu()));
        try {
            MonitorFixture.waitUntil(() -> m.charts().chosen().size() == 1);
        } catch (TimeoutException e) {
            // once in a full suite (2026-12-06) the charts never showed the row's GPU: say what they held then
            throw new AssertionError("the charts did not show " + train.gpu() + onFx(() -> ": picked "
                    + m.charts().picker().chosen(fx.app.fleet().gpus()) + ", drawn " + m.charts().chosen()
                    + ", loading " + m.charts().loading() + ", sources line '"
                    + robot.lookup("#monitor-sources").queryAs(Label.class).getText() + "'"), e);
        }
        assertThat(m.tabs().getSelectionModel().getSelectedIndex()).isZero();
        assertThat(robot.lookup("#fleet-passthrough").queryAs(Button.class).isDisabled())
                .as("no passthrough wizard handed in").isTrue();
    }

    @Test
    void aNodesGpuTabInTheMainWindowDrawsOnlyWhileSelected(FxRobot robot) throws Exception {
        TabPane content = robot.lookup("#content-tabs").queryAs(TabPane.class);
        Tab[] tab = new Tab[1];
        robot.interact(() -> {
            tab[0] = GpuTabs.forNode(fx.ui, MonitorServices.of(fx.app), fx.demo, "pve-3090");
            content.getTabs().add(tab[0]);
            content.getSelectionModel().select(tab[0]);
        });
        GpuChartsView view = ((GpuTabs.Holder) tab[0].getContent()).view();
        MonitorFixture.waitUntil(() -> view.chosen().size() == 4 && view.data().lines(ChartKind.TEMPERATURE).stream()
                .allMatch(s -> s.size() >= 2));
        assertThat(onFx(() -> List.copyOf(view.data().gpus()))).allSatisfy(g -> assertThat(g.host()).isEqualTo("pve-3090"));
        robot.interact(() -> content.getSelectionModel().select(0));
        WaitForAsyncUtils.waitForFxEvents();
        long drawn = view.chart(ChartKind.TEMPERATURE).draws();
        GpuId some = view.data().gpus().get(0).id();
        long hidden = System.currentTimeMillis();
        MonitorFixture.waitUntil(() -> fx.app.fleet().recent(some, hidden + 1000).size() >= 1);
        WaitForAsyncUtils.waitForFxEvents();
        assertThat(view.chart(ChartKind.TEMPERATURE).draws()).as("hidden: not drawn").isEqualTo(drawn);
        robot.interact(() -> content.getSelectionModel().select(tab[0]));
        MonitorFixture.waitUntil(() -> view.chart(ChartKind.TEMPERATURE).draws() > drawn);
        robot.interact(() -> content.getTabs().remove(tab[0]));
        robot.interact(() -> ((GpuTabs.Holder) tab[0].getContent()).dispose());
    }

    @Test
    void chartsOutOfSightAreDrawnOnlyOnceScrolledIntoView(FxRobot robot) throws Exception {
        GpuMonitor m = fx.open(robot);
        GpuChartsView charts = m.charts();
        MonitorFixture.waitUntil(() -> charts.chosen().size() == 6 && charts.data().lines(ChartKind.TEMPERATURE)
                .stream().allMatch(s -> s.size() >= 3));
        ScrollPane scroll = onFx(() -> (ScrollPane) robot.from(charts).lookup("#monitor-chart-scroll").query());
        robot.interact(() -> scroll.setVvalue(0));
        long top = onFx(() -> charts.chart(ChartKind.TEMPERATURE).draws());
        long bottom = onFx(() -> charts.chart(ChartKind.CLOCKS).draws());
        // new readings: the chart on screen is drawn again, the one below the fold is not
        MonitorFixture.waitUntil(() -> charts.chart(ChartKind.TEMPERATURE).draws() >= top + 2);
        assertThat(onFx(() -> charts.chart(ChartKind.CLOCKS).draws())).as("below the fold: not drawn")
                .isEqualTo(bottom);
        robot.interact(() -> scroll.setVvalue(1));
        MonitorFixture.waitUntil(() -> charts.chart(ChartKind.CLOCKS).draws() > bottom);
        long topWhenScrolled = onFx(() -> charts.chart(ChartKind.TEMPERATURE).draws());
        long clocks = onFx(() -> charts.chart(ChartKind.CLOCKS).draws());
        MonitorFixture.waitUntil(() -> charts.chart(ChartKind.CLOCKS).draws() >= clocks + 2);
        assertThat(onFx(() -> charts.chart(ChartKind.TEMPERATURE).draws())).as("scrolled out of sight: not drawn")
                .isEqualTo(topWhenScrolled);
    }
}
