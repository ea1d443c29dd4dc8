package io.gpuforge.ui.common;

import javafx.beans.binding.StringExpression;
import javafx.beans.value.ObservableBooleanValue;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;

/**
 * What every wizard window shares: its steps on the left; a title with a busy indicator, banners, an error line that
 * shows only when there is one, and the step's page; Cancel, then Back and Next (the default button) at the bottom.
 * The wizard fills the steps, title and content, and gives the buttons their actions and states. Ids:
 * {@code <prefix>-title}, {@code -steps}, {@code -error}, {@code -back}, {@code -next}, {@code -cancel}.
 */
public final class WizardFrame {

    private final VBox steps = new VBox(2);
    private final Label title = new Label();
    private final StackPane content = new StackPane();
    private final Button back = new Button();
    private final Button next = new Button();
    private final Button cancel = new Button();
    private final BorderPane root;

    /** @param banners shown between the title and the error line (each manages its own visibility) */
    public WizardFrame(String idPrefix, I18n i18n, ObservableBooleanValue busy, StringExpression error,
                       Node... banners) {
        title.getStyleClass().add("wizard-title");
        title.setId(idPrefix + "-title");
        steps.getStyleClass().add("wizard-steps");
        steps.setId(idPrefix + "-steps");
        ProgressIndicator spinner = new ProgressIndicator();
        spinner.setPrefSize(20, 20);
        spinner.visibleProperty().bind(busy);
        Label errorLine = Wrapped.wrapped(new Label());
        errorLine.setId(idPrefix + "-error");
        errorLine.getStyleClass().add("wizard-message-error");
        errorLine.textProperty().bind(error);
        errorLine.visibleProperty().bind(error.isNotEmpty());
        errorLine.managedProperty().bind(errorLine.visibleProperty());
        errorLine.setMaxWidth(Double.MAX_VALUE);
        HBox head = new HBox(10, title, spinner);
        head.setAlignment(Pos.CENTER_LEFT);
        VBox.setVgrow(content, Priority.ALWAYS);
        content.setAlignment(Pos.TOP_LEFT);
        VBox centre = new VBox(10, head);
        centre.getChildren().addAll(banners);
        centre.getChildren().addAll(errorLine, content);
        centre.setPadding(new Insets(16));
        back.setId(idPrefix + "-back");
        back.setText(i18n.get("passthrough.back"));
        next.setId(idPrefix + "-next");
        next.getStyleClass().add("accent");
        next.setDefaultButton(true);
        cancel.setId(idPrefix + "-cancel");
        cancel.setText(i18n.get("passthrough.cancel"));
        cancel.setCancelButton(true);
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox buttons = new HBox(10, cancel, spacer, back, next);
        buttons.setPadding(new Insets(10, 16, 12, 16));
        root = new BorderPane(centre);
        root.setLeft(steps);
        root.setBottom(buttons);
    }

    public VBox steps() {
        return steps;
    }

    public Label title() {
        return title;
    }

    public StackPane content() {
        return content;
    }

    public Button back() {
        return back;
    }

    public Button next() {
        return next;
    }

    public Button cancel() {
        return cancel;
    }

    /** The whole frame, to put in the wizard's scene. */
    public BorderPane root() {
        return root;
    }
}
