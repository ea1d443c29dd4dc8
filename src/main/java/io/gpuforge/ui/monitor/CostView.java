package io.gpuforge.ui.monitor;

import io.gpuforge.domain.telemetry.CostProfile;
import io.gpuforge.domain.telemetry.CostReport;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.common.ViewScope;
import java.io.File;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.util.StringConverter;

/**
 * What the GPUs cost: energy per GPU, VM and node over a window under a flat or peak/off-peak tariff, the hardware's
 * price spread over its depreciation period, the total per GPU-hour, against a cloud GPU-hour price; CSV export.
 */
final class CostView extends VBox implements Disposable {

    /** A row of the table: the scope, what it is about (as the charts name a GPU) and its line. */
    record Row(String scope, String name, CostReport.Line line, String currency) {
    }

    private final UiContext ui;
    private final MonitorServices services;
    private final ViewScope scope = new ViewScope();
    private final CostViewModel model;
    private final TableView<Row> table = new TableView<>();
    private final Label summary = new Label();
    private final Label error = new Label();

    CostView(UiContext ui, MonitorServices services) {
        super(8);
        this.ui = ui;
        this.services = services;
        this.model = new CostViewModel(ui.i18n());
        setId("cost-view");
        setPadding(new Insets(10));
        ChoiceBox<CostViewModel.Window> window = new ChoiceBox<>(FXCollections.observableArrayList(
                CostViewModel.Window.values()));
        window.setId("cost-window");
        window.valueProperty().bindBidirectional(model.window);
        window.setConverter(new StringConverter<>() {
            @Override
            public String toString(CostViewModel.Window w) {
                if (w == null) {
                    return "";
                }
                switch (w) {
                    case WEEK:
                        return ui.i18n().get("monitor.cost.window.week");
                    case MONTH:
                        return ui.i18n().get("monitor.cost.window.month");
                    case THIS_MONTH:
                        return ui.i18n().get("monitor.cost.window.thisMonth");
                    default:
                        return ui.i18n().get("monitor.cost.window.day");
                }
            }

            @Override
            public CostViewModel.Window fromString(String s) {
                return null;
            }
        });
        CheckBox peak = new CheckBox();
        peak.setId("cost-peak");
        scope.bind(peak.textProperty(), ui.i18n().text("monitor.cost.peak"));
        peak.selectedProperty().bindBidirectional(model.peak);
        FlowPane tariff = new FlowPane(8, 6, label("monitor.cost.window"), window,
                field("cost-currency", "monitor.cost.currency", model.currency, 4),
                field("cost-price", "monitor.cost.price", model.price, 5), peak,
                field("cost-peak-from", "monitor.cost.peakFrom", model.peakFrom, 4),
                field("cost-peak-to", "monitor.cost.peakTo", model.peakTo, 4),
                field("cost-peak-price", "monitor.cost.peakPrice", model.peakPrice, 5));
        FlowPane hardware = new FlowPane(8, 6, field("cost-hardware", "monitor.cost.hardware", model.hardware, 7),
                field("cost-gpus", "monitor.cost.gpus", model.gpus, 3),
                field("cost-years", "monitor.cost.years", model.years, 3),
                field("cost-cloud", "monitor.cost.cloud", model.cloud, 5));
        tariff.setAlignment(Pos.CENTER_LEFT);
        hardware.setAlignment(Pos.CENTER_LEFT);
        Button calculate = button("cost-calculate", "monitor.cost.calculate", this::calculate);
        Button save = button("cost-save", "monitor.cost.save", this::save);
        Button export = button("cost-export", "monitor.cost.export", this::chooseExport);
        export.disableProperty().bind(model.report.isNull());
        HBox buttons = new HBox(8, calculate, save, export);
        error.setId("cost-error");
        error.getStyleClass().add("danger");
        error.setWrapText(true);
        summary.setId("cost-summary");
        summary.setWrapText(true);
        summary.getStyleClass().add("text-bold");
        table.setId("cost-table");
        table.getColumns().setAll(List.of(
                col("monitor.cost.col.scope", 65, r -> r.scope()),
                col("monitor.cost.col.name", 250, r -> r.name()),
                col("monitor.cost.col.kwh", 75, r -> String.format(Locale.ROOT, "%.3f", r.line().kwh())),
                col("monitor.cost.col.energy", 90, r -> CostViewModel.money(r.line().energyCost(), r.currency())),
                col("monitor.cost.col.hardware", 100, r -> CostViewModel.money(r.line().hardwareCost(), r.currency())),
                col("monitor.cost.col.total", 90, r -> CostViewModel.money(r.line().totalCost(), r.currency())),
                col("monitor.cost.col.gpuHours", 95, r -> String.format(Locale.ROOT, "%.1f", r.line().gpuHours())),
                col("monitor.cost.col.perHour", 125, r -> r.line().costPerGpuHour().isPresent()
                        ? CostViewModel.money(r.line().costPerGpuHour().getAsDouble(), r.currency()) : "–"),
                col("monitor.cost.col.cloud", 90, r -> r.line().cloudCost().isPresent()
                        ? CostViewModel.money(r.line().cloudCost().getAsDouble(), r.currency()) : "–")));
        Label placeholder = new Label();
        scope.bind(placeholder.textProperty(), ui.i18n().text("monitor.cost.empty"));
        table.setPlaceholder(placeholder);
        VBox.setVgrow(table, Priority.ALWAYS);
        getChildren().addAll(tariff, hardware, buttons, error, summary, table);
        ui.tasks().supply(ui.i18n().get("monitor.task.cost"), () -> services.costs().profile())
                .onSuccess(p -> {
                    model.load(p);
                    calculate();
                })
                .onError(t -> error.setText(t.getMessage()))
                .start();
    }

    private Label label(String key) {
        Label l = new Label();
        scope.bind(l.textProperty(), ui.i18n().text(key));
        return l;
    }

    private HBox field(String id, String key, StringProperty value, int columns) {
        TextField f = new TextField();
        f.setId(id);
        f.setPrefColumnCount(columns);
        f.textProperty().bindBidirectional(value);
        HBox b = new HBox(4, label(key), f);
        b.setAlignment(Pos.CENTER_LEFT);
        return b;
    }

    private Button button(String id, String key, Runnable action) {
        Button b = new Button();
        b.setId(id);
        scope.bind(b.textProperty(), ui.i18n().text(key));
        b.setOnAction(e -> action.run());
        return b;
    }

    private TableColumn<Row, String> col(String key, double width, Function<Row, String> value) {
        return scope.textColumn(ui.i18n(), key, width, value);
    }

    private CostProfile profileOrSay() {
        error.setText("");
        try {
            return model.profile();
        } catch (IllegalArgumentException e) {
            error.setText(e.getMessage());
            return null;
        }
    }

    /** Reads the energy of the window and prices it (background). */
    void calculate() {
        CostProfile p = profileOrSay();
        if (p == null) {
            return;
        }
        Instant[] r = model.range(Instant.now());
        ui.tasks().supply(ui.i18n().get("monitor.task.cost"), () -> services.costs().report(r[0], r[1], p))
                .onSuccess(this::show)
                .onError(t -> error.setText(t.getMessage()))
                .start();
    }

    private void show(CostReport r) {
        model.report.set(r);
        List<Row> rows = new ArrayList<>();
        String g = ui.i18n().get("monitor.cost.scope.gpu");
        String v = ui.i18n().get("monitor.cost.scope.vm");
        String n = ui.i18n().get("monitor.cost.scope.node");
        r.gpus().forEach(l -> rows.add(new Row(g, gpuName(l), l, r.currency())));
        r.vms().forEach(l -> rows.add(new Row(v, l.label(), l, r.currency())));
        r.nodes().forEach(l -> rows.add(new Row(n, l.label(), l, r.currency())));
        rows.add(new Row(ui.i18n().get("monitor.cost.scope.total"), ui.i18n().get("monitor.cost.allGpus"), r.total(),
                r.currency()));
        table.getItems().setAll(rows);
        summary.setText(model.summary(r));
    }

    /**
     * "RTX 3090 · pve-3090 01:00.0" for the line of GPU {@code demo:Demo lab/pve-3090/0000:01:00.0} labelled
     * "NVIDIA GeForce RTX 3090 on demo:Demo lab/pve-3090": cards of one model stay apart.
     */
    static String gpuName(CostReport.Line l) {
        String key = l.key();
        int slash = key.lastIndexOf('/');
        if (slash <= 0) {
            return l.label();
        }
        String host = key.substring(0, slash);
        String node = host.substring(host.lastIndexOf('/') + 1);
        String device = key.substring(slash + 1).replaceFirst("^0000:", "");
        int on = l.label().lastIndexOf(" on ");
        String model = (on > 0 ? l.label().substring(0, on) : l.label()).replaceFirst("^NVIDIA (GeForce )?", "");
        return model + " · " + node + " " + device;
    }

    private void save() {
        CostProfile p = profileOrSay();
        if (p != null) {
            ui.tasks().supply(ui.i18n().get("monitor.task.cost"), () -> {
                services.costs().save(p);
                return p;
            }).onSuccess(x -> calculate()).onError(t -> error.setText(t.getMessage())).start();
        }
    }

    private void chooseExport() {
        FileChooser fc = new FileChooser();
        fc.setTitle(ui.i18n().get("monitor.cost.export"));
        fc.setInitialFileName("gpu-cost.csv");
        fc.getExtensionFilters().add(new FileChooser.ExtensionFilter("CSV", "*.csv"));
        File f = fc.showSaveDialog(getScene() == null ? null : getScene().getWindow());
        if (f != null) {
            export(f.toPath());
        }
    }

    /** Writes the shown report as CSV (background); the summary says where. */
    void export(Path file) {
        CostReport r = model.report.get();
        if (r == null) {
            return;
        }
        ui.tasks().supply(ui.i18n().get("monitor.task.export"), () -> {
            services.costs().exportCsv(r, file);
            return file;
        }).onSuccess(p -> summary.setText(model.summary(r) + "\n" + ui.i18n().get("monitor.cost.exported", p)))
                .onError(t -> error.setText(t.getMessage())).start();
    }

    // for tests
    CostViewModel model() {
        return model;
    }

    TableView<Row> table() {
        return table;
    }

    @Override
    public void dispose() {
        scope.dispose();
    }
}
