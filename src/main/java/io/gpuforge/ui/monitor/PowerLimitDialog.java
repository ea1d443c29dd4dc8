package io.gpuforge.ui.monitor;

import io.gpuforge.app.monitor.GpuFleet;
import io.gpuforge.domain.telemetry.FleetGpu;
import io.gpuforge.domain.telemetry.GpuMetric;
import io.gpuforge.domain.telemetry.GpuSample;
import io.gpuforge.domain.telemetry.PowerLimit;
import io.gpuforge.ui.common.UiContext;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.Modality;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * Sets a GPU's power limit: a value within the range the card reports (refused otherwise, saying the range), a
 * confirmation step that says what will happen (and, to keep it after reboots, the plan that installs a systemd
 * unit, which can be rolled back), then the new limit. The charts show the enforced limit from the next reading.
 */
final class PowerLimitDialog {

    private final UiContext ui;
    private final MonitorServices services;
    private final GpuFleet fleet;
    private final FleetGpu gpu;
    private final Stage stage = new Stage();
    private final TextField watts = new TextField();
    private final CheckBox persist = new CheckBox();
    private final Label error = new Label();
    private final Label confirmText = new Label();
    private final TextArea plan = new TextArea();
    private final Button set = new Button();
    private final Button confirm = new Button();
    private final Button close = new Button();
    private PowerLimit range;
    private double asked = Double.NaN;

    PowerLimitDialog(UiContext ui, MonitorServices services, Window owner, FleetGpu gpu) {
        this.ui = ui;
        this.services = services;
        this.fleet = services.fleet();
        this.gpu = gpu;
        stage.initOwner(owner);
        stage.initModality(Modality.WINDOW_MODAL);
        stage.setTitle(ui.i18n().get("monitor.power.title", MonitorText.gpu(gpu)));
        Optional<GpuSample> now = fleet.latest(gpu.id());
        range = now.map(PowerLimit::of).orElse(new PowerLimit(gpu.id(), gpu.model(),
                OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty()));
        Label what = new Label(ui.i18n().get("monitor.power.range", MonitorText.gpu(gpu), fmt(range.currentW()),
                fmt(range.minW()), fmt(range.maxW())));
        what.setId("power-range");
        what.setWrapText(true);
        watts.setId("power-watts");
        watts.setPromptText(ui.i18n().get("monitor.power.prompt"));
        range.currentW().ifPresent(w -> watts.setText(String.format(Locale.ROOT, "%.0f", w)));
        persist.setId("power-persist");
        persist.setText(ui.i18n().get("monitor.power.persist"));
        error.setId("power-error");
        error.setWrapText(true);
        error.getStyleClass().add("danger");
        confirmText.setId("power-confirm-text");
        confirmText.setWrapText(true);
        plan.setId("power-plan");
        plan.setEditable(false);
        plan.setPrefRowCount(8);
        plan.setVisible(false);
        plan.setManaged(false);
        plan.getStyleClass().add("monospace");
        set.setId("power-set");
        set.setText(ui.i18n().get("monitor.power.set"));
        set.setDefaultButton(true);
        set.setOnAction(e -> check());
        confirm.setId("power-confirm");
        confirm.setText(ui.i18n().get("monitor.power.confirm"));
        confirm.setDisable(true);
        confirm.setOnAction(e -> apply());
        close.setId("power-close");
        close.setText(ui.i18n().get("monitor.power.close"));
        close.setCancelButton(true);
        close.setOnAction(e -> stage.close());
        watts.textProperty().addListener((o, a, b) -> reset());
        persist.selectedProperty().addListener((o, a, b) -> reset());
        HBox buttons = new HBox(8, set, confirm, close);
        buttons.setAlignment(Pos.CENTER_RIGHT);
        VBox box = new VBox(10, what, watts, persist, error, confirmText, plan, buttons);
        box.setPadding(new Insets(16));
        box.setPrefWidth(520);
        box.setId("power-dialog");
        Scene scene = new Scene(box);
        ui.theme().style(scene);
        stage.setScene(scene);
    }

    void show() {
        stage.show();
    }

    Stage stage() {
        return stage;
    }

    private static String fmt(OptionalDouble d) {
        return d.isPresent() ? String.format(Locale.ROOT, "%.0f", d.getAsDouble()) : "?";
    }

    private void reset() {
        confirm.setDisable(true);
        confirmText.setText("");
        error.setText("");
        plan.setVisible(false);
        plan.setManaged(false);
        asked = Double.NaN;
    }

    /** Step one: the value is checked against the card's range; then what will happen is shown for confirmation. */
    private void check() {
        reset();
        double w;
        try {
            w = Double.parseDouble(watts.getText().strip().replace(',', '.'));
        } catch (NumberFormatException e) {
            error.setText(ui.i18n().get("monitor.power.notNumber", watts.getText().strip()));
            return;
        }
        if (range.minW().isEmpty() || range.maxW().isEmpty()) {
            error.setText(ui.i18n().get("monitor.power.noRange"));
            return;
        }
        if (!(w >= range.minW().getAsDouble() && w <= range.maxW().getAsDouble())) {
            error.setText(ui.i18n().get("monitor.power.outOfRange", ChartTicks.format(w), fmt(range.minW()),
                    fmt(range.maxW())));
            return;
        }
        double chosen = w;
        if (!persist.isSelected()) {
            asked = chosen;
            confirmText.setText(ui.i18n().get("monitor.power.confirmNow", ChartTicks.format(chosen), MonitorText.gpu(gpu)));
            confirm.setDisable(false);
            return;
        }
        set.setDisable(true);
        ui.tasks().supply(ui.i18n().get("monitor.task.plan"), () -> services.powerLimits().persistentPlan(gpu, fleet.latest(gpu.id()), chosen))
                .onSuccess(diff -> {
                    asked = chosen;
                    plan.setText(diff);
                    plan.setVisible(true);
                    plan.setManaged(true);
                    confirmText.setText(ui.i18n().get("monitor.power.confirmPersist", ChartTicks.format(chosen)));
                    confirm.setDisable(false);
                    stage.sizeToScene();
                })
                .onError(t -> error.setText(ui.i18n().get("monitor.power.noPlan", t.getMessage())))
                .andFinally(() -> set.setDisable(false))
                .start();
    }

    /** Step two: set it (off the FX thread); the result says how, and how to roll a persistent one back. */
    private void apply() {
        if (Double.isNaN(asked)) {
            return;
        }
        double w = asked;
        boolean keep = persist.isSelected();
        confirm.setDisable(true);
        set.setDisable(true);
        ui.tasks().supply(ui.i18n().get("monitor.task.powerLimit"), () -> services.powerLimits().set(gpu, fleet.latest(gpu.id()), w, keep))
                .onSuccess(r -> {
                    String rollback = r.appliedAs().map(j -> ui.i18n().get("monitor.power.rollback", j)).orElse("");
                    confirmText.setText(ui.i18n().get("monitor.power.done", ChartTicks.format(w), r.how()) + rollback);
                    services.events().info(ui.i18n().get("monitor.event.source"), ui.i18n().get("monitor.event.powerLimit",
                            MonitorText.gpu(gpu), ChartTicks.format(w), r.how()));
                    asked = Double.NaN;
                })
                .onError(t -> error.setText(ui.i18n().get("monitor.power.failed", t.getMessage())))
                .andFinally(() -> set.setDisable(false))
                .start();
    }

    /** The limit the card enforces now, as its newest reading says (tests). */
    OptionalDouble enforced() {
        return fleet.latest(gpu.id()).map(s -> s.get(GpuMetric.POWER_LIMIT_W)).orElse(OptionalDouble.empty());
    }
}
