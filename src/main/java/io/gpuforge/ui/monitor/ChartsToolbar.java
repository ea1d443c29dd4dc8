package io.gpuforge.ui.monitor;

import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.common.ViewScope;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import javafx.event.ActionEvent;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;

/** The charts' window: 5 min, 1 h, 24 h, 7 d, 30 d or a custom range; pause and live; what the charts show. */
final class ChartsToolbar extends HBox {

    static final DateTimeFormatter INPUT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT);

    private final UiContext ui;
    private final ChartWindow window;
    private final ToggleGroup presets = new ToggleGroup();
    private final Label status = new Label();
    private final ToggleButton pause = new ToggleButton();

    ChartsToolbar(UiContext ui, ChartWindow window, ViewScope scope) {
        super(6);
        this.ui = ui;
        this.window = window;
        setAlignment(Pos.CENTER_LEFT);
        setPadding(new Insets(6, 8, 6, 8));
        getStyleClass().add("monitor-toolbar");
        Label label = new Label();
        scope.bind(label.textProperty(), ui.i18n().text("monitor.window"));
        getChildren().add(label);
        preset(scope, "window-5m", "monitor.window.5m", ChartWindow.Preset.M5);
        preset(scope, "window-1h", "monitor.window.1h", ChartWindow.Preset.H1);
        preset(scope, "window-24h", "monitor.window.24h", ChartWindow.Preset.H24);
        preset(scope, "window-7d", "monitor.window.7d", ChartWindow.Preset.D7);
        preset(scope, "window-30d", "monitor.window.30d", ChartWindow.Preset.D30);
        presets.selectToggle(presets.getToggles().get(0));
        Button custom = new Button();
        custom.setId("window-custom");
        scope.bind(custom.textProperty(), ui.i18n().text("monitor.window.custom"));
        custom.setOnAction(e -> askCustom());
        pause.setId("monitor-pause");
        scope.bind(pause.textProperty(), ui.i18n().text("monitor.pause"));
        pause.setOnAction(e -> {
            if (pause.isSelected()) {
                window.pause(System.currentTimeMillis());
            } else {
                window.resume();
            }
        });
        Button live = new Button();
        live.setId("monitor-live");
        scope.bind(live.textProperty(), ui.i18n().text("monitor.live"));
        live.setOnAction(e -> window.resume());
        scope.listen(window.liveProperty(), (o, was, now) -> pause.setSelected(!now));
        scope.listen(window.presetProperty(), (o, was, now) -> {
            if (now == ChartWindow.Preset.CUSTOM) {
                presets.selectToggle(null);
            }
        });
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        status.setId("monitor-status");
        status.getStyleClass().addAll("text-small", "text-muted");
        getChildren().addAll(custom, pause, live, spacer, status);
    }

    private void preset(ViewScope scope, String id, String key, ChartWindow.Preset p) {
        ToggleButton b = new ToggleButton();
        b.setId(id);
        b.setToggleGroup(presets);
        scope.bind(b.textProperty(), ui.i18n().text(key));
        b.setOnAction(e -> {
            if (!b.isSelected()) {
                b.setSelected(true);
            }
            window.preset(p);
        });
        getChildren().add(b);
    }

    /** A custom range, typed as two local times. */
    private void askCustom() {
        Dialog<ButtonType> d = new Dialog<>();
        d.initOwner(getScene() == null ? null : getScene().getWindow());
        d.setTitle(ui.i18n().get("monitor.custom.title"));
        d.getDialogPane().setId("custom-range");
        TextField from = new TextField(INPUT.format(LocalDateTime.now().minusHours(6)));
        from.setId("custom-from");
        TextField to = new TextField(INPUT.format(LocalDateTime.now()));
        to.setId("custom-to");
        Label error = new Label();
        error.setId("custom-error");
        error.getStyleClass().add("danger");
        GridPane g = new GridPane();
        g.setHgap(8);
        g.setVgap(8);
        g.addRow(0, new Label(ui.i18n().get("monitor.custom.from")), from);
        g.addRow(1, new Label(ui.i18n().get("monitor.custom.to")), to);
        g.add(error, 0, 2, 2, 1);
        d.getDialogPane().setContent(g);
        d.getDialogPane().getButtonTypes().setAll(ButtonType.OK, ButtonType.CANCEL);
        ui.theme().style(d.getDialogPane().getScene());
        d.getDialogPane().lookupButton(ButtonType.OK).addEventFilter(ActionEvent.ACTION, e -> {
            Optional<String> wrong = apply(from.getText(), to.getText());
            if (wrong.isPresent()) {
                error.setText(wrong.get());
                e.consume();
            }
        });
        d.show();
    }

    /** Applies a typed range; what is wrong with it otherwise. */
    Optional<String> apply(String fromText, String toText) {
        try {
            long f = LocalDateTime.parse(fromText.strip(), INPUT).atZone(ZoneId.systemDefault()).toInstant()
                    .toEpochMilli();
            long t = LocalDateTime.parse(toText.strip(), INPUT).atZone(ZoneId.systemDefault()).toInstant()
                    .toEpochMilli();
            if (t - f < ChartWindow.MIN_SPAN || t - f > ChartWindow.MAX_SPAN) {
                return Optional.of(ui.i18n().get("monitor.custom.span"));
            }
            window.custom(f, Math.min(t, System.currentTimeMillis()) < f + ChartWindow.MIN_SPAN ? t
                    : Math.min(t, System.currentTimeMillis()));
            return Optional.empty();
        } catch (DateTimeParseException e) {
            return Optional.of(ui.i18n().get("monitor.custom.format"));
        }
    }

    void status(String text) {
        status.setText(text);
    }

    void dispose() {
        // bindings live in the view's scope
    }
}
