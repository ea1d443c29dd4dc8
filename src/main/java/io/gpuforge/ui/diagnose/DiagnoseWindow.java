package io.gpuforge.ui.diagnose;

import io.gpuforge.app.words.Words;
import io.gpuforge.app.diagnose.UnreadableLog;
import io.gpuforge.domain.diagnose.Diagnosis;
import io.gpuforge.domain.diagnose.Evidence;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.common.Wrapped;
import java.io.File;
import java.util.Objects;
import javafx.geometry.Insets;
import javafx.geometry.Orientation;
import javafx.geometry.Pos;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TextArea;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
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
    private final TextArea text = new TextArea();
    private final ProgressIndicator busy = new ProgressIndicator();
    private final Label status = new Label();
    private final DiagnosisView result;

    private DiagnoseWindow(UiContext ui, DiagnoseServices services, Window owner) {
        this.ui = ui;
        this.services = services;
        this.i18n = ui.i18n();
        this.result = new DiagnosisView(i18n, this::showLine);
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
        text.setId("diagnose-text");
        text.setPromptText(i18n.get("diagnose.prompt"));
        text.getStyleClass().add("diagnose-log");
        text.setWrapText(true);
        VBox.setVgrow(text, Priority.ALWAYS);
        Button open = new Button(i18n.get("diagnose.open"), Icons.of(Feather.FOLDER));
        open.setId("diagnose-open");
        open.setOnAction(e -> openFile());
        Button run = new Button(i18n.get("diagnose.run"), Icons.of(Feather.SEARCH));
        run.setId("diagnose-run");
        run.getStyleClass().add("accent");
        run.setDefaultButton(true);
        run.disableProperty().bind(text.textProperty().isEmpty().or(busy.visibleProperty()));
        run.setOnAction(e -> diagnose());
        busy.setPrefSize(20, 20);
        busy.setVisible(false);
        status.setId("diagnose-status");
        status.getStyleClass().add("text-muted");
        HBox buttons = new HBox(10, open, run, busy, status);
        buttons.setAlignment(Pos.CENTER_LEFT);
        VBox left = new VBox(10, text, buttons);
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

    private void openFile() {
        FileChooser chooser = new FileChooser();
        chooser.setTitle(i18n.get("diagnose.open"));
        File f = chooser.showOpenDialog(stage);
        if (f != null) {
            load(f);
        }
    }

    /** Reads a log file into the text area (its last 8 MiB) and diagnoses it; also for tests. */
    void load(File f) {
        busy.setVisible(true);
        ui.tasks().supply(i18n.get("diagnose.task.read"), () -> services.diagnosis().text(f.toPath()))
                .onSuccess(t -> {
                    text.setText(t);
                    diagnose();
                })
                .onError(e -> status.setText(i18n.get("diagnose.openFailed", e instanceof UnreadableLog u
                        ? new Words(i18n.getLocale()).text(u.problem()) : e.getMessage())))
                .andFinally(() -> busy.setVisible(false)).start();
    }

    /** Diagnoses the text as it stands; also for tests. */
    void diagnose() {
        String pasted = text.getText();
        busy.setVisible(true);
        status.setText("");
        ui.tasks().supply(i18n.get("diagnose.task.run"), () -> services.diagnosis().pasted(pasted))
                .onSuccess(this::render)
                .onError(e -> status.setText(i18n.get("diagnose.failed", e.getMessage())))
                .andFinally(() -> busy.setVisible(false)).start();
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
