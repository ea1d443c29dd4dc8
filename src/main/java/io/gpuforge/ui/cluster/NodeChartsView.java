package io.gpuforge.ui.cluster;

import io.gpuforge.domain.telemetry.NodeHistory;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.TextCells;
import io.gpuforge.ui.common.ViewScope;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.XYChart;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.util.StringConverter;

/**
 * A node's recorded CPU, memory and network over an hour, a day or a week (Proxmox VE's RRD), three small line
 * charts with their axes set by hand and animation off; gaps where the node recorded nothing. A backend that
 * keeps no history says so instead.
 */
final class NodeChartsView extends VBox implements Disposable {

    private final ViewScope scope = new ViewScope();
    private final LineChart<Number, Number> cpu;
    private final LineChart<Number, Number> memory;
    private final LineChart<Number, Number> network;

    NodeChartsView(NodeModel model, boolean supported, I18n i18n) {
        setPadding(new Insets(12));
        setSpacing(8);
        getStyleClass().add("node-charts");
        if (!supported) {
            Label none = new Label();
            none.setId("node-charts-unsupported");
            none.setWrapText(true);
            scope.bind(none.textProperty(), i18n.text("console.charts.unsupported"));
            getChildren().setAll(none);
            cpu = null;
            memory = null;
            network = null;
            return;
        }
        ChoiceBox<NodeHistory.Timeframe> frame = new ChoiceBox<>(FXCollections.observableArrayList(
                NodeHistory.Timeframe.HOUR, NodeHistory.Timeframe.DAY, NodeHistory.Timeframe.WEEK));
        frame.setId("node-charts-timeframe");
        frame.setConverter(TextCells.converter(t -> i18n.get(t == NodeHistory.Timeframe.HOUR ? "console.charts.hour"
                : t == NodeHistory.Timeframe.DAY ? "console.charts.day" : "console.charts.week")));
        frame.valueProperty().bindBidirectional(model.timeframe());
        scope.onDispose(() -> frame.valueProperty().unbindBidirectional(model.timeframe()));
        Label state = new Label();
        state.setId("node-charts-state");
        Label frameLabel = new Label();
        scope.bind(frameLabel.textProperty(), i18n.text("console.charts.timeframe"));
        HBox top = new HBox(10, frameLabel, frame, state);
        cpu = chart("node-chart-cpu", i18n.get("console.charts.cpu"));
        memory = chart("node-chart-memory", i18n.get("console.charts.memory"));
        network = chart("node-chart-network", i18n.get("console.charts.network"));
        getChildren().setAll(top, cpu, memory, network);
        Runnable render = () -> {
            NodeHistory h = model.history().valueProperty().get();
            String error = model.history().errorProperty().get();
            state.setText(error != null ? i18n.get("console.charts.error", error)
                    : h == null ? i18n.get("console.charts.loading") : i18n.get("console.charts.points", h.points().size()));
            if (h != null) {
                render(h, i18n);
            }
        };
        scope.listen(model.history().valueProperty(), (o, a, b) -> render.run());
        scope.listen(model.history().errorProperty(), (o, a, b) -> render.run());
        render.run();
        model.history().loadOnce();
    }

    private static LineChart<Number, Number> chart(String id, String title) {
        NumberAxis x = new NumberAxis();
        x.setAutoRanging(false);
        x.setForceZeroInRange(false);
        NumberAxis y = new NumberAxis();
        y.setAutoRanging(false);
        y.setLowerBound(0);
        LineChart<Number, Number> c = new LineChart<>(x, y);
        c.setId(id);
        c.setTitle(title);
        c.setAnimated(false);
        c.setCreateSymbols(false);
        c.setLegendVisible(true);
        c.setMinHeight(150);
        c.setPrefHeight(190);
        VBox.setVgrow(c, Priority.ALWAYS);
        return c;
    }

    private void render(NodeHistory h, I18n i18n) {
        List<NodeHistory.Point> pts = h.points();
        if (pts.isEmpty()) {
            return;
        }
        long first = pts.get(0).time().getEpochSecond();
        long last = pts.get(pts.size() - 1).time().getEpochSecond();
        XYChart.Series<Number, Number> cpuUse = new XYChart.Series<>();
        cpuUse.setName(i18n.get("console.charts.cpuSeries"));
        XYChart.Series<Number, Number> memUsed = new XYChart.Series<>();
        memUsed.setName(i18n.get("console.charts.memorySeries"));
        XYChart.Series<Number, Number> in = new XYChart.Series<>();
        in.setName(i18n.get("console.charts.netIn"));
        XYChart.Series<Number, Number> out = new XYChart.Series<>();
        out.setName(i18n.get("console.charts.netOut"));
        double memTop = 1;
        double netTop = 1;
        for (NodeHistory.Point p : pts) {
            long t = p.time().getEpochSecond();
            p.cpu().ifPresent(v -> cpuUse.getData().add(new XYChart.Data<>(t, v * 100)));
            if (p.memoryUsedBytes().isPresent()) {
                memUsed.getData().add(new XYChart.Data<>(t, p.memoryUsedBytes().getAsLong() / (double) (1L << 30)));
            }
            if (p.memoryTotalBytes().isPresent()) {
                memTop = Math.max(memTop, p.memoryTotalBytes().getAsLong() / (double) (1L << 30));
            }
            if (p.netIn().isPresent()) {
                in.getData().add(new XYChart.Data<>(t, p.netIn().getAsDouble() / 1024));
                netTop = Math.max(netTop, p.netIn().getAsDouble() / 1024);
            }
            if (p.netOut().isPresent()) {
                out.getData().add(new XYChart.Data<>(t, p.netOut().getAsDouble() / 1024));
                netTop = Math.max(netTop, p.netOut().getAsDouble() / 1024);
            }
        }
        set(cpu, first, last, 100, "%", List.of(cpuUse));
        set(memory, first, last, memTop, "GiB", List.of(memUsed));
        set(network, first, last, netTop * 1.1, "KiB/s", List.of(in, out));
    }

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("MM-dd HH:mm").withZone(ZoneId.systemDefault());

    private static void set(LineChart<Number, Number> c, long first, long last, double top, String unit,
                            List<XYChart.Series<Number, Number>> series) {
        NumberAxis x = (NumberAxis) c.getXAxis();
        x.setLowerBound(first);
        x.setUpperBound(Math.max(last, first + 1));
        x.setTickUnit(Math.max(1, (last - first) / 6.0));
        x.setTickLabelFormatter(new StringConverter<>() {
            @Override
            public String toString(Number n) {
                return CLOCK.format(Instant.ofEpochSecond(n.longValue()));
            }

            @Override
            public Number fromString(String s) {
                throw new UnsupportedOperationException();
            }
        });
        NumberAxis y = (NumberAxis) c.getYAxis();
        y.setUpperBound(top);
        y.setTickUnit(top / 4);
        y.setLabel(unit);
        c.getData().setAll(series);
    }

    @Override
    public void dispose() {
        scope.dispose();
    }
}
