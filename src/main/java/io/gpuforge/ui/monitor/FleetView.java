package io.gpuforge.ui.monitor;

import io.gpuforge.app.monitor.GpuFleet;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.common.ViewScope;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.beans.value.ObservableBooleanValue;
import javafx.beans.value.ObservableValue;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.transformation.FilteredList;
import javafx.collections.transformation.SortedList;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;

/**
 * Every GPU on every connection in one table: host, address, model, VRAM, driver, assigned VM and its state,
 * free or in use, live temperature, power and utilisation (with the last minute as a sparkline), and the source.
 * Sort by any column, filter by words. From a row: pass it through to a VM (the passthrough wizard, where the
 * window offers it), set its power limit, open its charts. Live values refresh once a frame while it shows.
 */
final class FleetView extends BorderPane implements Disposable {

    private final UiContext ui;
    private final GpuFleet fleet;
    private final ViewScope scope = new ViewScope();
    private final ObservableList<FleetRow> rows = FXCollections.observableArrayList();
    private final Map<String, FleetRow> byKey = new LinkedHashMap<>();
    private final FilteredList<FleetRow> filtered = new FilteredList<>(rows, r -> true);
    private final TableView<FleetRow> table = new TableView<>();
    private final FrameDriver frames;
    private final GpuFleet.Subscription subscription;
    private final Label summary = new Label();

    FleetView(UiContext ui, MonitorServices services, ObservableBooleanValue showing, Consumer<FleetGpu> powerLimit,
              Consumer<FleetGpu> charts, Optional<Consumer<FleetGpu>> passThrough) {
        this.ui = ui;
        this.fleet = services.fleet();
        setId("fleet-view");
        TextField filter = new TextField();
        filter.setId("fleet-filter");
        scope.bind(filter.promptTextProperty(), ui.i18n().text("monitor.fleet.filter"));
        filter.textProperty().addListener((o, a, text) -> filtered.setPredicate(r -> r.matches(text)));
        HBox.setHgrow(filter, Priority.ALWAYS);
        Button pass = button("fleet-passthrough", "monitor.fleet.passthrough", () -> selected().ifPresent(
                g -> passThrough.ifPresent(p -> p.accept(g))));
        Button power = button("fleet-power", "monitor.fleet.powerLimit", () -> selected().ifPresent(powerLimit));
        Button chart = button("fleet-charts", "monitor.fleet.charts", () -> selected().ifPresent(charts));
        var none = table.getSelectionModel().selectedItemProperty().isNull();
        pass.disableProperty().bind(passThrough.isEmpty() ? Bindings.createBooleanBinding(() -> true) : none);
        power.disableProperty().bind(none);
        chart.disableProperty().bind(none);
        summary.setId("fleet-summary");
        summary.getStyleClass().addAll("text-small", "text-muted");
        HBox bar = new HBox(8, filter, pass, power, chart);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.setPadding(new Insets(8));

        table.setId("fleet-table");
        SortedList<FleetRow> sorted = new SortedList<>(filtered);
        sorted.comparatorProperty().bind(table.comparatorProperty());
        table.setItems(sorted);
        table.getColumns().setAll(List.of(
                column("monitor.fleet.col.host", 168, r -> Bindings.createStringBinding(
                        () -> r.gpu().connection() + " / " + r.gpu().host(), r.gpuProperty())),
                column("monitor.fleet.col.address", 112, r -> Bindings.createStringBinding(
                        () -> r.gpu().address().orElse(""), r.gpuProperty())),
                column("monitor.fleet.col.model", 200, r -> Bindings.createStringBinding(
                        () -> r.gpu().model(), r.gpuProperty())),
                number("monitor.fleet.col.vram", 62, FleetRow::vram, v -> String.format(Locale.ROOT, "%.0f GiB",
                        v / 1024)),
                // "unknown" where no source says which driver, as inventory and gpu list say it
                column("monitor.fleet.col.driver", 68, r -> Bindings.createStringBinding(
                        () -> r.gpu().driver().orElse(ui.i18n().get("value.unknown")), r.gpuProperty(),
                        ui.i18n().localeProperty())),
                column("monitor.fleet.col.vm", 180, r -> Bindings.createStringBinding(() -> r.gpu().vm()
                        .map(v -> r.gpu().vmState().map(s -> ui.i18n().get("monitor.fleet.vmState", v,
                                MonitorText.vmState(ui.i18n(), s))).orElse(v) + alsoIn(r.gpu()))
                        .orElse(MonitorText.containers(r.gpu().containers())),
                        r.gpuProperty(), ui.i18n().localeProperty())),
                stateColumn(),
                number("monitor.fleet.col.temperature", 66, FleetRow::temperature,
                        v -> String.format(Locale.ROOT, "%.0f °C", v)),
                powerColumn(),
                sparkColumn(),
                sourceColumn()));
        table.setRowFactory(tv -> {
            TableRow<FleetRow> row = new TableRow<>();
            MenuItem p = menu("monitor.fleet.passthrough", () -> passThrough.ifPresent(x -> x.accept(row.getItem().gpu())));
            p.setDisable(passThrough.isEmpty());
            MenuItem l = menu("monitor.fleet.powerLimit", () -> powerLimit.accept(row.getItem().gpu()));
            MenuItem c = menu("monitor.fleet.charts", () -> charts.accept(row.getItem().gpu()));
            row.contextMenuProperty().bind(Bindings.when(row.emptyProperty()).then((ContextMenu) null)
                    .otherwise(new ContextMenu(p, l, c)));
            // the other VMs set up with the GPU ("+1" in Used by), named
            row.itemProperty().addListener((o, a, item) -> row.setTooltip(item == null || item.gpu().alsoIn().isEmpty()
                    ? null : new javafx.scene.control.Tooltip(ui.i18n().get("monitor.fleet.alsoIn", String.join(", ",
                    item.gpu().alsoIn().stream().map(v -> v.name() + " (VM " + v.ref().id() + ")").toList())))));
            row.setOnMouseClicked(e -> {
                if (e.getClickCount() == 2 && !row.isEmpty()) {
                    charts.accept(row.getItem().gpu());
                }
            });
            return row;
        });
        Label placeholder = new Label();
        scope.bind(placeholder.textProperty(), ui.i18n().text("monitor.fleet.empty"));
        table.setPlaceholder(placeholder);
        setTop(bar);
        setCenter(table);
        setBottom(summary);
        BorderPane.setMargin(summary, new Insets(4, 8, 6, 8));
        frames = new FrameDriver(showing, this::frame);
        subscription = fleet.subscribe(frames::requestForData);
        frames.request();
    }

    private Button button(String id, String key, Runnable action) {
        Button b = new Button();
        b.setId(id);
        scope.bind(b.textProperty(), ui.i18n().text(key));
        b.setOnAction(e -> action.run());
        return b;
    }

    private MenuItem menu(String key, Runnable action) {
        MenuItem m = new MenuItem(ui.i18n().get(key));
        m.setOnAction(e -> action.run());
        return m;
    }

    /** A column headed by {@code key}'s text (following the language), showing {@code value} of each row. */
    private <T> TableColumn<FleetRow, T> column(String key, double width, Function<FleetRow, ObservableValue<T>> value) {
        TableColumn<FleetRow, T> c = new TableColumn<>();
        scope.bind(c.textProperty(), ui.i18n().text(key));
        c.setCellValueFactory(cd -> value.apply(cd.getValue()));
        c.setPrefWidth(width);
        return c;
    }

    private TableColumn<FleetRow, Number> number(String key, double width,
                                                 Function<FleetRow, ObservableValue<Number>> value,
                                                 Function<Double, String> format) {
        TableColumn<FleetRow, Number> c = column(key, width, value);
        c.setCellFactory(col -> new TableCell<>() {
            @Override
            protected void updateItem(Number n, boolean empty) {
                super.updateItem(n, empty);
                setText(empty || n == null || Double.isNaN(n.doubleValue()) ? null : format.apply(n.doubleValue()));
            }
        });
        c.setComparator(Comparator.comparingDouble(n -> unknownFirst(n.doubleValue())));
        return c;
    }

    /** How a live value sorts: unknown (NaN) before every reading. */
    private static double unknownFirst(double v) {
        return Double.isNaN(v) ? Double.NEGATIVE_INFINITY : v;
    }

    private TableColumn<FleetRow, Number> powerColumn() {
        TableColumn<FleetRow, Number> c = number("monitor.fleet.col.power", 95, FleetRow::power, v -> "");
        c.setCellFactory(col -> new TableCell<>() {
            @Override
            protected void updateItem(Number n, boolean empty) {
                super.updateItem(n, empty);
                FleetRow r = empty ? null : getTableRow().getItem();
                if (r == null || n == null || Double.isNaN(n.doubleValue())) {
                    setText(null);
                    return;
                }
                double l = r.limit().get();
                setText(Double.isNaN(l) ? String.format(Locale.ROOT, "%.0f W", n.doubleValue())
                        : String.format(Locale.ROOT, "%.0f / %.0f W", n.doubleValue(), l));
            }
        });
        return c;
    }

    /** Where the readings come from; for a GPU without readings, since when, with its source's error on hover. */
    private TableColumn<FleetRow, String> sourceColumn() {
        TableColumn<FleetRow, String> c = column("monitor.fleet.col.source", 155, FleetRow::source);
        c.setCellFactory(col -> new TableCell<>() {
            @Override
            protected void updateItem(String text, boolean empty) {
                super.updateItem(text, empty);
                FleetRow r = empty ? null : getTableRow().getItem();
                setText(empty ? null : text);
                String why = r == null ? "" : r.problem().get();
                javafx.scene.control.Tooltip tip = getTooltip();
                if (why.isEmpty() ? tip != null : tip == null || !why.equals(tip.getText())) {
                    setTooltip(why.isEmpty() ? null : new javafx.scene.control.Tooltip(why));
                }
                // the class changed only when it must: each change has the cell styled again
                if (why.isEmpty()) {
                    getStyleClass().remove("danger");
                } else if (!getStyleClass().contains("danger")) {
                    getStyleClass().add("danger");
                }
            }
        });
        return c;
    }

    private TableColumn<FleetRow, FleetRow.Utilization> sparkColumn() {
        TableColumn<FleetRow, FleetRow.Utilization> c = column("monitor.fleet.col.utilization", 130,
                FleetRow::utilization);
        c.setCellFactory(col -> new SparklineCell(ui.theme()));
        c.setComparator(Comparator.comparingDouble(u -> unknownFirst(u.now())));
        return c;
    }

    private Optional<FleetGpu> selected() {
        return Optional.ofNullable(table.getSelectionModel().getSelectedItem()).map(FleetRow::gpu);
    }

    /** One frame: rows added or rebound, live values refreshed. */
    private void frame() {
        List<FleetGpu> gpus = fleet.gpus();
        Map<String, FleetRow> seen = new LinkedHashMap<>();
        for (FleetGpu g : gpus) {
            String k = GpuPicker.key(g);
            FleetRow r = byKey.get(k);
            if (r == null) {
                r = new FleetRow(g);
                rows.add(r);
            } else {
                r.gpu(g);
            }
            seen.put(k, r);
        }
        rows.removeIf(r -> !seen.containsValue(r));
        byKey.clear();
        byKey.putAll(seen);
        long now = System.currentTimeMillis();
        for (FleetRow r : rows) {
            r.update(fleet, ui.i18n(), now);
        }
        long free = gpus.stream().filter(g -> g.availability() == FleetGpu.Availability.FREE).count();
        summary.setText(ui.i18n().get(fleet.loading() ? "monitor.fleet.loading" : "monitor.fleet.summary",
                gpus.size(), free, gpus.stream().map(FleetGpu::connection).distinct().count()));
    }

    // for tests
    TableView<FleetRow> table() {
        return table;
    }

    ObservableList<FleetRow> rows() {
        return rows;
    }

    @Override
    public void dispose() {
        subscription.close();
        frames.dispose();
        scope.dispose();
    }

    /**
     * " +1" when other VMs name the GPU too (the holder shown is the running one, else the lowest id), as the tree
     * says it; the row's tooltip names them.
     */
    private static String alsoIn(FleetGpu g) {
        return g.alsoIn().isEmpty() ? "" : " +" + g.alsoIn().size();
    }

    /** The State column, wide enough for its longest value ("assigned (VM off)", "已分配（已关机）"). */
    private TableColumn<FleetRow, String> stateColumn() {
        TableColumn<FleetRow, String> c = column("monitor.fleet.col.state", 152, r -> Bindings.createStringBinding(
                () -> MonitorText.availability(ui.i18n(), r.gpu().availability()), r.gpuProperty(),
                ui.i18n().localeProperty()));
        c.setId("fleet-col-state");
        return c;
    }
}
