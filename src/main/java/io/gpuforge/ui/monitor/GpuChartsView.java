package io.gpuforge.ui.monitor;

import io.gpuforge.app.monitor.GpuFleet;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.ReducedSeries;
import io.gpuforge.domain.telemetry.SeriesKey;
import io.gpuforge.ui.common.BackgroundTasks;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.common.ViewScope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import javafx.animation.PauseTransition;
import javafx.beans.value.ObservableBooleanValue;
import javafx.geometry.Insets;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.VBox;
import javafx.scene.shape.Rectangle;
import javafx.util.Duration;

/**
 * The monitor's charts for the chosen GPUs: temperature (with slowdown and shutdown lines), power (with the
 * enforced limit, dashed), utilisation, memory, fan and clocks, all over the same window. History comes from the
 * store reduced to the charts' pixel width; live readings from the fleet are appended once a frame while the view
 * shows (and not at all while it is hidden or paused). Zoom with the wheel, scroll back by dragging.
 */
final class GpuChartsView extends BorderPane implements Disposable {

    private final UiContext ui;
    private final MonitorServices services;
    private final GpuFleet fleet;
    private final ViewScope scope = new ViewScope();
    private final ChartWindow window = new ChartWindow();
    private final ChartsToolbar toolbar;
    private final GpuPicker picker;
    private final FlowPane legend = new FlowPane(14, 4);
    private String legendShown = "";
    private final Label sources = new Label();
    private final Map<ChartKind, GpuChart> charts = new EnumMap<>(ChartKind.class);
    private final FrameDriver frames;
    private final ChartPainter painter;
    private final GpuFleet.Subscription subscription;
    private final PauseTransition reloadSoon = new PauseTransition(Duration.millis(180));
    private ChartData data = ChartData.empty();
    private BackgroundTasks.Cancellable loading;
    private int loads;
    private ReducedSeries.Resolution resolution = ReducedSeries.Resolution.RAW;
    private int rowsSeen = -1;

    /**
     * @param showing whether the view is on screen (its window shows and its tab is selected)
     * @param initial which GPUs to chart at first (at most 8 of them)
     */
    GpuChartsView(UiContext ui, MonitorServices services, ObservableBooleanValue showing, Predicate<FleetGpu> initial, boolean pickable) {
        this.ui = ui;
        this.services = services;
        this.fleet = services.fleet();
        getStyleClass().add("gpu-charts");
        setId("gpu-charts");
        toolbar = new ChartsToolbar(ui, window, scope);
        picker = new GpuPicker(ui, initial, this::reloadNow);
        VBox box = new VBox(6);
        box.setPadding(new Insets(8));
        legend.setId("monitor-legend");
        sources.setId("monitor-sources");
        // a line a source, not wrapped: a wrapped label of 20-odd sources was laid out again for each width the
        // scroll pane tried, 18-33 ms of the FX thread when its text changed (issue 47); a line longer than the
        // window ends in "..." and the tooltip holds the whole text
        sources.setWrapText(false);
        Tooltip sourcesTip = new Tooltip();
        sourcesTip.textProperty().bind(sources.textProperty());
        sourcesTip.setWrapText(true);
        sourcesTip.setMaxWidth(900);
        sources.setTooltip(sourcesTip);
        sources.getStyleClass().addAll("text-small", "text-muted");
        box.getChildren().add(legend);
        for (ChartKind k : ChartKind.values()) {
            GpuChart c = new GpuChart(k.id(), k.unit, k.min, k.max);
            c.onResize(this::widthChanged);
            c.onZoom((f, anchor) -> window.zoom(f, anchor, now()));
            c.onPan(d -> window.pan(d, now()));
            charts.put(k, c);
            box.getChildren().add(c);
        }
        box.getChildren().add(sources);
        ScrollPane scroll = new ScrollPane(box);
        scroll.setFitToWidth(true);
        scroll.setId("monitor-chart-scroll");
        painter = new ChartPainter(List.copyOf(charts.values()), c -> onScreen(scroll, c), showing);
        scroll.vvalueProperty().addListener((o, a, b) -> painter.viewChanged());
        scroll.viewportBoundsProperty().addListener((o, a, b) -> painter.viewChanged());
        setTop(toolbar);
        setCenter(scroll);
        if (pickable) {
            setLeft(picker);
        }
        reloadSoon.setOnFinished(e -> reloadNow());
        scope.listen(window.changes(), (o, a, b) -> {
            frames().request();
            reloadSoon.playFromStart();
        });
        scope.listen(ui.theme().darkProperty(), (o, a, b) -> frames().request());
        scope.listen(ui.i18n().localeProperty(), (o, a, b) -> frames().request());
        frames = new FrameDriver(showing, this::frame);
        subscription = fleet.subscribe(frames::requestForData);
        frames.request();
    }

    /** Whether any of the chart is inside the scroll pane's viewport. */
    private static boolean onScreen(ScrollPane scroll, GpuChart chart) {
        if (chart.getScene() == null || scroll.getScene() == null) {
            return false;
        }
        return scroll.localToScene(scroll.getLayoutBounds()).intersects(chart.localToScene(chart.getLayoutBounds()));
    }

    private FrameDriver frames() {
        return frames;
    }

    private static long now() {
        return System.currentTimeMillis();
    }

    private void widthChanged() {
        reloadSoon.playFromStart();
    }

    /** One frame: new GPUs in the list, live readings appended, every chart's content set (drawn by the painter). */
    private void frame() {
        List<FleetGpu> rows = fleet.gpus();
        if (rows.size() != rowsSeen) {
            rowsSeen = rows.size();
            if (picker.update(rows)) {
                reloadNow();
            }
        }
        if (window.isLive()) {
            for (FleetGpu g : data.gpus()) {
                data.append(g.id(), fleet.recent(g.id(), data.appendedUntil(g.id())));
            }
            if (data.tooLong()) {
                reloadNow();
            }
        }
        long to = window.to(now());
        long from = to - window.span();
        boolean dark = ui.theme().isDark();
        String noData = ui.i18n().get(data.gpus().isEmpty() ? "monitor.chart.noGpu" : "monitor.chart.noData");
        for (Map.Entry<ChartKind, GpuChart> e : charts.entrySet()) {
            ChartKind k = e.getKey();
            List<GpuChart.Threshold> limits = k == ChartKind.TEMPERATURE ? temperatureLimits() : List.of();
            e.getValue().setContent(ui.i18n().get(k.titleKey()), data.lines(k), limits, from, to, dark, noData);
        }
        painter.allChanged();
        legend();
        sources.setText(SourcesText.of(ui.i18n(), fleet.sources(), connection -> fleet.gpus().stream()
                .filter(g -> g.connection().equals(connection)).map(g -> fleet.latest(g.id()))
                .flatMap(java.util.Optional::stream).map(x -> java.time.Instant.ofEpochMilli(x.timeMillis()))
                .max(java.util.Comparator.naturalOrder())));
        // the points a line draws and the readings behind it: "raw" when nothing was reduced, never more points
        // than readings (it used to name the chart's width, and the readings of the last history read only)
        ChartData.Density d = data.density(ChartKind.TEMPERATURE);
        boolean raw = resolution == ReducedSeries.Resolution.RAW;
        toolbar.status(ui.i18n().get(d.reduced() ? (raw ? "monitor.status.raw" : "monitor.status.minute")
                : (raw ? "monitor.status.allRaw" : "monitor.status.allMinute"), d.points(), d.readings()));
    }

    /** The slowdown and shutdown temperatures the chosen GPUs report (each value once). */
    private List<GpuChart.Threshold> temperatureLimits() {
        Set<Double> slow = new TreeSet<>();
        Set<Double> shut = new TreeSet<>();
        for (FleetGpu g : data.gpus()) {
            fleet.latest(g.id()).ifPresent(s -> {
                s.get(GpuMetric.SLOWDOWN_TEMP_C).ifPresent(slow::add);
                s.get(GpuMetric.SHUTDOWN_TEMP_C).ifPresent(shut::add);
            });
        }
        List<GpuChart.Threshold> out = new ArrayList<>();
        slow.forEach(v -> out.add(new GpuChart.Threshold(v, ui.i18n().get("monitor.chart.slowdown",
                ChartTicks.format(v)), false)));
        shut.forEach(v -> out.add(new GpuChart.Threshold(v, ui.i18n().get("monitor.chart.shutdown",
                ChartTicks.format(v)), true)));
        return out;
    }

    /** One entry per chosen GPU in its line colour, with the source of its readings; rebuilt when it changes. */
    private void legend() {
        String text = legendText();
        boolean dark = ui.theme().isDark();
        if (text.equals(legendShown) && legend.getUserData() == Boolean.valueOf(dark)) {
            return;
        }
        legendShown = text;
        legend.setUserData(dark);
        legend.getChildren().clear();
        List<FleetGpu> gpus = data.gpus();
        String[] entries = text.split("\n");
        for (int i = 0; i < gpus.size() && i < entries.length; i++) {
            Label l = new Label(entries[i]);
            l.getStyleClass().add("text-small");
            Rectangle swatch = new Rectangle(14, 4, (dark ? GpuChart.DARK : GpuChart.LIGHT)[i % GpuChart.LIGHT.length]);
            l.setGraphic(swatch);
            legend.getChildren().add(l);
        }
    }

    /** The legend as text, one GPU a line: model, host, address and where its readings come from. */
    String legendText() {
        StringBuilder b = new StringBuilder();
        List<FleetGpu> gpus = data.gpus();
        for (int i = 0; i < gpus.size(); i++) {
            FleetGpu g = gpus.get(i);
            String source = fleet.latest(g.id()).map(s -> MonitorText.source(ui.i18n(), s))
                    .orElse(ui.i18n().get("monitor.source.none"));
            b.append(i == 0 ? "" : "\n").append(MonitorText.gpu(g)).append(" — ").append(source);
        }
        return b.toString();
    }

    /** Reads the window again for the chosen GPUs, reduced to the charts' width (background). */
    void reloadNow() {
        reloadSoon.stop();
        List<FleetGpu> chosen = picker.chosen(fleet.gpus());
        if (loading != null && !loading.isDone()) {
            loading.cancel();
        }
        int load = ++loads;
        long to = window.to(now());
        long from = to - window.span();
        int width = charts.get(ChartKind.TEMPERATURE).plotWidth();
        if (chosen.isEmpty()) {
            data = ChartData.empty();
            frames.request();
            return;
        }
        List<SeriesKey> keys = ChartData.keys(chosen);
        loading = ui.tasks().supply(ui.i18n().get("monitor.task.history"), () -> services.history().reduced(keys,
                Instant.ofEpochMilli(from), Instant.ofEpochMilli(to), width))
                .onSuccess(history -> {
                    if (load != loads) {
                        return;
                    }
                    data = ChartData.of(chosen, history, to, width);
                    resolution = history.stream().anyMatch(r -> r.resolution() == ReducedSeries.Resolution.MINUTE)
                            ? ReducedSeries.Resolution.MINUTE : ReducedSeries.Resolution.RAW;
                    frames.request();
                })
                .onError(t -> sources.setText(ui.i18n().get("monitor.history.failed", t.getMessage())))
                .start();
    }

    // for tests

    /** Whether a history query is under way (a pause or a window change reloads the charts). */
    boolean loading() {
        return loading != null && !loading.isDone();
    }

    GpuChart chart(ChartKind k) {
        return charts.get(k);
    }

    ChartWindow window() {
        return window;
    }

    ChartData data() {
        return data;
    }

    ReducedSeries.Resolution resolution() {
        return resolution;
    }

    Set<GpuId> chosen() {
        Set<GpuId> out = new LinkedHashSet<>();
        data.gpus().forEach(g -> out.add(g.id()));
        return out;
    }

    GpuPicker picker() {
        return picker;
    }

    /** A sample was seen: {@code fleet.latest} of a chosen GPU (tests). */
    List<GpuSample> latestOfChosen() {
        List<GpuSample> out = new ArrayList<>();
        data.gpus().forEach(g -> fleet.latest(g.id()).ifPresent(out::add));
        return out;
    }

    @Override
    public void dispose() {
        subscription.close();
        frames.dispose();
        painter.dispose();
        reloadSoon.stop();
        if (loading != null) {
            loading.cancel();
        }
        scope.dispose();
        picker.dispose();
        toolbar.dispose();
    }
}
