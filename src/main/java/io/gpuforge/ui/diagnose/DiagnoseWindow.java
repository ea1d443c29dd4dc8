package io.gpuforge.ui.diagnose;

import io.gpuforge.app.words.Words;
import io.gpuforge.app.diagnose.UnreadableLog;
import io.gpuforge.domain.diagnose.Diagnosis;
import io.gpuforge.domain.diagnose.Evidence;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.PastedText;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.common.Wrapped;
import java.io.File;
import java.util.Objects;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TextArea;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.kordamp.ikonli.feather.Feather;

/**
 * File → Diagnose a failed VM start…: the logs of a GPU VM that did not start pasted (or opened) on the left, the
 * cause, its evidence lines, why and the fix on the right. Nothing is changed anywhere and no host is needed; the
 * diagnosis runs off the FX thread. Open it with {@link #open}.
 */
public final class DiagnoseWindow {

    static final String CSS = "/io/gpuforge/ui/diagnose/diagnose.css";

    private final UiContext ui;
    private final DiagnoseServices services;
    private final I18n i18n;
    private final Stage stage = new Stage();
    private final PastedText input;
    private final TextArea text;
    private final Label status = new Label();
    private final DiagnosisView result;

    private DiagnoseWindow(UiContext ui, DiagnoseServices services, Window owner) {
        this.ui = ui;
        this.services = services;
        this.i18n = ui.i18n();
        this.result = new DiagnosisView(i18n, this::showLine);
        this.input = new PastedText(i18n, "diagnose", new PastedText.Keys("diagnose.prompt",
                "diagnose.open", "diagnose.run"), Feather.SEARCH, () -> stage, this::load, this::diagnose);
        this.text = input.text();
        if (owner != null) {
            stage.initOwner(owner);
        }
        stage.setTitle(i18n.get("diagnose.title"));
        stage.setScene(scene());
    }

    /** Opens the window; returns it, shown. */
    public static Stage open(UiContext ui, DiagnoseServices services, Window owner) {
        DiagnoseWindow w = new DiagnoseWindow(ui, services, owner);
        w.stage.show();
        return w.stage;
    }

    private Scene scene() {
        Label intro = Wrapped.wrapped(new Label(i18n.get("diagnose.intro")));
        text.getStyleClass().add("diagnose-log");
        text.setWrapText(true);
        VBox.setVgrow(text, Priority.ALWAYS);
        status.setId("diagnose-status");
        status.getStyleClass().add("text-muted");
        VBox left = new VBox(10, text, input.buttons(status));
        left.setMinWidth(320);

        Label placeholder = new Label(i18n.get("diagnose.placeholder"));
        placeholder.setWrapText(true);
        placeholder.getStyleClass().add("text-muted");
        result.getChildren().setAll(placeholder);
        result.setPadding(new Insets(4, 8, 4, 8));
        ScrollPane scroll = new ScrollPane(result);
        scroll.setFitToWidth(true);
        SplitPane split = new SplitPane(left, scroll);
        split.setOrientation(Orientation.HORIZONTAL);
        split.setDividerPositions(0.45);
        VBox.setVgrow(split, Priority.ALWAYS);

        VBox root = new VBox(10, intro, split);
        root.setPadding(new Insets(16));
        root.setId("diagnose-window");
        root.getStylesheets().add(Objects.requireNonNull(DiagnoseWindow.class.getResource(CSS)).toExternalForm());
        Scene scene = new Scene(root, 1180, 760);
        ui.theme().style(scene);
        return scene;
    }

    /** Reads a log file into the text area (its last 8 MiB) and diagnoses it; also for tests. */
    void load(File f) {
        input.busy(true);
        ui.tasks().supply(i18n.get("diagnose.task.read"), () -> services.diagnosis().text(f.toPath()))
                .onSuccess(t -> {
                    text.setText(t);
                    diagnose();
                })
                .onError(e -> status.setText(i18n.get("diagnose.openFailed", e instanceof UnreadableLog u
                        ? new Words(i18n.getLocale()).text(u.problem()) : e.getMessage())))
                .andFinally(() -> input.busy(false)).start();
    }

    /** Diagnoses the text as it stands; also for tests. */
    void diagnose() {
        String pasted = text.getText();
        input.busy(true);
        status.setText("");
        ui.tasks().supply(i18n.get("diagnose.task.run"), () -> services.diagnosis().pasted(pasted))
                .onSuccess(this::render)
                .onError(e -> status.setText(i18n.get("diagnose.failed", e.getMessage())))
                .andFinally(() -> input.busy(false)).start();
    }

    private void render(Diagnosis d) {
        result.render(d);
        status.setText(d.known() ? i18n.get("diagnose.status.found", d.causes().size())
                : i18n.get("diagnose.status.unknown"));
        if (d.known() && !d.causes().get(0).evidence().isEmpty()) {
            showLine(d.causes().get(0).evidence().get(0));
        }
    }

    /** Selects an evidence line in the pasted text and scrolls to it. */
    private void showLine(Evidence e) {
        String t = text.getText();
        int start = 0;
        for (int line = 1; line < e.line() && start >= 0; line++) {
            int nl = t.indexOf('\n', start);
            start = nl < 0 ? -1 : nl + 1;
        }
        if (start < 0 || start > t.length()) {
            return;
        }
        int end = t.indexOf('\n', start);
        text.selectRange(start, end < 0 ? t.length() : end);
        text.requestFocus();
    }
}
