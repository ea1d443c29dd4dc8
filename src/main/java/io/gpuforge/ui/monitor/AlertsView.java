package io.gpuforge.ui.monitor;

import io.gpuforge.app.monitor.AlertService;
import io.gpuforge.domain.telemetry.AlertEvent;
import io.gpuforge.domain.telemetry.AlertRule;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.domain.telemetry.GpuId;
import io.gpuforge.ui.common.Disposable;
import io.gpuforge.ui.common.TextCells;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.common.ViewScope;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.cell.CheckBoxTableCell;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * Alert rules (stored) and the alerts that fired: temperature ≥ X °C, power ≥ Y % of the limit, throttling, source
 * lost, each for N seconds, on one GPU or every GPU. What fires goes to the events panel, the log and a desktop
 * notification; a value that flaps around the threshold fires once (the hysteresis).
 */
final class AlertsView extends VBox implements Disposable {


    private final UiContext ui;
    private final MonitorServices services;
    private final AlertService alerts;
    private final ViewScope scope = new ViewScope();
    private final ObservableList<AlertRule> rules = FXCollections.observableArrayList();
    private final ObservableList<String> history = FXCollections.observableArrayList();
    private final TableView<AlertRule> table = new TableView<>(rules);
    private final ChoiceBox<AlertRule.Kind> kind = new ChoiceBox<>();
    private final TextField threshold = new TextField("83");
    private final TextField hold = new TextField("30");
    private final ChoiceBox<Optional<FleetGpu>> scopeChoice = new ChoiceBox<>();
    private final Label error = new Label();
    private final Consumer<AlertEvent> listener;

    AlertsView(UiContext ui, MonitorServices services) {
        super(8);
        this.ui = ui;
        this.services = services;
        this.alerts = services.alerts();
        setId("alerts-view");
        setPadding(new Insets(10));
        table.setId("alert-rules");
        TableColumn<AlertRule, String> what = new TableColumn<>();
        scope.bind(what.textProperty(), ui.i18n().text("monitor.alert.col.rule"));
        what.setCellValueFactory(c -> new ReadOnlyStringWrapper(MonitorText.rule(ui.i18n(), c.getValue(),
                gpuName(c.getValue().gpu()))));
        what.setPrefWidth(520);
        TableColumn<AlertRule, Boolean> on = new TableColumn<>();
        scope.bind(on.textProperty(), ui.i18n().text("monitor.alert.col.enabled"));
        on.setCellValueFactory(c -> {
            ReadOnlyBooleanWrapper p = new ReadOnlyBooleanWrapper(c.getValue().enabled());
            p.addListener((o, a, b) -> save(c.getValue().withEnabled(b)));
            return p;
        });
        on.setCellFactory(CheckBoxTableCell.forTableColumn(on));
        on.setEditable(true);
        table.setEditable(true);
        table.getColumns().setAll(List.of(what, on));
        table.setPrefHeight(200);
        Label none = new Label();
        scope.bind(none.textProperty(), ui.i18n().text("monitor.alert.none"));
        table.setPlaceholder(none);

        kind.setId("alert-kind");
        kind.getItems().setAll(AlertRule.Kind.values());
        kind.setValue(AlertRule.Kind.TEMPERATURE);
        kind.setConverter(TextCells.converter(k -> MonitorText.ruleKind(ui.i18n(), k)));
        threshold.setId("alert-threshold");
        threshold.setPrefColumnCount(5);
        threshold.disableProperty().bind(Bindings.createBooleanBinding(
                () -> kind.getValue() == null || !kind.getValue().hasThreshold(), kind.valueProperty()));
        hold.setId("alert-hold");
        hold.setPrefColumnCount(4);
        scopeChoice.setId("alert-scope");
        scopeChoice.setMinWidth(140);
        scopeChoice.setConverter(TextCells.converter(g -> g.map(MonitorText::gpu).orElse(ui.i18n().get("monitor.alert.allGpus"))));
        refreshScopes();
        Button add = new Button();
        add.setId("alert-add");
        scope.bind(add.textProperty(), ui.i18n().text("monitor.alert.add"));
        add.setOnAction(e -> add());
        Button remove = new Button();
        remove.setId("alert-remove");
        scope.bind(remove.textProperty(), ui.i18n().text("monitor.alert.remove"));
        remove.disableProperty().bind(table.getSelectionModel().selectedItemProperty().isNull());
        remove.setOnAction(e -> remove(table.getSelectionModel().getSelectedItem()));
        HBox form = new HBox(8, label("monitor.alert.kind"), kind, label("monitor.alert.threshold"), threshold,
                label("monitor.alert.hold"), hold, label("monitor.alert.scope"), scopeChoice, add, remove);
        form.setAlignment(Pos.CENTER_LEFT);
        error.setId("alert-error");
        error.getStyleClass().add("danger");
        ListView<String> fired = new ListView<>(history);
        fired.setId("alert-history");
        VBox.setVgrow(fired, Priority.ALWAYS);
        getChildren().addAll(label("monitor.alert.rules"), table, form, error, label("monitor.alert.recent"), fired);
        listener = e -> Platform.runLater(() -> {
            history.add(0, MonitorText.clock(e.at()) + "  " + MonitorText.alert(ui.i18n(), e));
            if (history.size() > 200) {
                history.remove(200, history.size());
            }
        });
        alerts.addListener(listener);
        reload();
    }

    private Label label(String key) {
        Label l = new Label();
        scope.bind(l.textProperty(), ui.i18n().text(key));
        return l;
    }

    private String gpuName(Optional<GpuId> id) {
        return id.map(g -> services.fleet().gpu(g).map(MonitorText::gpu).orElse(g.toString())).orElse("");
    }

    /** The fleet's GPUs as choices (every GPU, or one). */
    void refreshScopes() {
        Optional<FleetGpu> keep = scopeChoice.getValue();
        scopeChoice.getItems().setAll(FXCollections.observableArrayList());
        scopeChoice.getItems().add(Optional.empty());
        services.fleet().gpus().forEach(g -> scopeChoice.getItems().add(Optional.of(g)));
        scopeChoice.setValue(keep != null && scopeChoice.getItems().contains(keep) ? keep : Optional.empty());
    }

    private void reload() {
        ui.tasks().supply(ui.i18n().get("monitor.task.alerts"), alerts::rules)
                .onSuccess(rules::setAll)
                .onError(t -> error.setText(t.getMessage()))
                .start();
    }

    /** Adds the rule the form describes; what is wrong with it otherwise. */
    void add() {
        error.setText("");
        AlertRule r;
        try {
            double t = kind.getValue().hasThreshold() ? Double.parseDouble(threshold.getText().strip()) : 0;
            long s = Long.parseLong(hold.getText().strip());
            r = AlertRule.of(scopeChoice.getValue() == null ? Optional.empty() : scopeChoice.getValue()
                    .map(FleetGpu::id), kind.getValue(), t, Duration.ofSeconds(s));
        } catch (NumberFormatException e) {
            error.setText(ui.i18n().get("monitor.alert.notNumber"));
            return;
        } catch (IllegalArgumentException e) {
            error.setText(ui.i18n().get("monitor.alert.invalid", e.getMessage()));
            return;
        }
        save(r);
    }

    private void save(AlertRule r) {
        ui.tasks().supply(ui.i18n().get("monitor.task.alerts"), () -> alerts.save(r))
                .onSuccess(saved -> reload())
                .onError(t -> error.setText(t.getMessage()))
                .start();
    }

    private void remove(AlertRule r) {
        if (r != null) {
            ui.tasks().supply(ui.i18n().get("monitor.task.alerts"), () -> {
                alerts.remove(r.id());
                return r;
            }).onSuccess(x -> reload()).onError(t -> error.setText(t.getMessage())).start();
        }
    }

    // for tests
    ObservableList<AlertRule> rules() {
        return rules;
    }

    ObservableList<String> history() {
        return history;
    }

    @Override
    public void dispose() {
        alerts.removeListener(listener);
        scope.dispose();
    }
}
