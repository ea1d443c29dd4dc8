package io.gpuforge.ui.shell;

import io.gpuforge.app.settings.FirstFrameSettings;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.ThemeManager;
import java.nio.file.Path;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;

/**
 * The window's first frame, shown before the application context exists: the main window's place, size, theme and
 * language, its tree and content areas saying "Starting GPUForge…". {@link MainWindow#show} fills the same scene in
 * once the context is ready; a start that failed says why in it. Needs nothing but the first-frame settings, so it
 * shows before the database, the secret store or any backend is touched.
 */
public final class StartingFrame {

    private final I18n i18n;
    private final Label status;
    private final VBox tree;

    private StartingFrame(I18n i18n) {
        this.i18n = i18n;
        Label title = new Label();
        title.textProperty().bind(i18n.text("start.starting"));
        title.getStyleClass().add("title-4");
        status = new Label();
        status.textProperty().bind(i18n.text("start.loading"));
        status.setWrapText(true);
        status.getStyleClass().add("text-muted");
        tree = new VBox(8, title, status);
        tree.setPadding(new Insets(12));
        tree.setId("starting-tree");
    }

    /** Puts the first frame on {@code stage} (its last place and size) and shows it; FX thread. */
    public static StartingFrame show(Stage stage, I18n i18n, ThemeManager theme, FirstFrameSettings settings) {
        StartingFrame f = new StartingFrame(i18n);
        StackPane content = new StackPane();
        content.setId("starting-content");
        // the tree's width where the main window's divider will put it (a split pane laid out before its first
        // frame puts its divider elsewhere, and the window would jump when it fills in)
        double divider = settings.navigationDivider() == null ? WindowGeometry.DEFAULT_DIVIDER
                : settings.navigationDivider();
        double width = settings.window() == null ? WindowGeometry.DEFAULT_WIDTH : settings.window().width();
        f.tree.setPrefWidth(divider * width);
        f.tree.setMinWidth(0);
        f.tree.setStyle("-fx-border-color: transparent -color-border-default transparent transparent;");
        BorderPane root = new BorderPane(content);
        root.setLeft(f.tree);
        root.setId("starting-root");
        root.getStyleClass().add("main-window");
        Scene scene = new Scene(root);
        theme.style(scene);
        stage.setScene(scene);
        stage.titleProperty().bind(i18n.text("app.title"));
        WindowGeometry.restore(stage, settings.window());
        stage.show();
        return f;
    }

    /** The start failed: says what went wrong and where the log is, with a button that ends the application. */
    public void failed(String message, Path logDir) {
        status.textProperty().unbind();
        status.setText(i18n.get("start.failed", message, logDir));
        status.getStyleClass().setAll("label", "danger");
        status.setId("starting-failed");
        Button close = new Button();
        close.textProperty().bind(i18n.text("start.close"));
        close.setOnAction(e -> Platform.exit());
        tree.getChildren().add(close);
    }
}
