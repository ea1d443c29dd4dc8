package io.gpuforge.ui.common;

import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import javafx.beans.binding.StringExpression;
import javafx.beans.value.ObservableBooleanValue;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;

/**
 * What every wizard window shares: its steps on the left; a title with a busy indicator, banners, an error line that
 * shows only when there is one, and the step's page; Cancel, then Back and Next (the default button) at the bottom.
 * A wizard's steps are an enum; {@link #show} puts one up: its title, and the list marking the steps done and those
 * not needed. The words: {@code wizard.*} for what every wizard says, {@code <feature>.wizard.step.<step>} for a
 * step's title ({@link #stepKey}). The wizard fills the content and gives the buttons their actions and states. Ids:
 * {@code <prefix>-title}, {@code -steps}, {@code -step-<step>}, {@code -error}, {@code -back}, {@code -next},
 * {@code -cancel}.
 */
public final class WizardFrame {

    /** Where the wizard styles are (steps, title, banners, messages). */
    static final String CSS = "/css/passthrough.css";

    private final String idPrefix;
    private final String feature;
    private final I18n i18n;

    private final VBox steps = new VBox(2);
    private final Label title = new Label();
    private final StackPane content = new StackPane();
    private final Button back = new Button();
    private final Button next = new Button();
    private final Button cancel = new Button();
    private final BorderPane root;

    /**
     * @param feature the bundle prefix of the step titles ({@code passthrough}, {@code share}, {@code vmcreate})
     * @param banners shown between the title and the error line (each manages its own visibility)
     */
    public WizardFrame(String idPrefix, String feature, I18n i18n, ObservableBooleanValue busy,
                       StringExpression error, Node... banners) {
        this.idPrefix = idPrefix;
        this.feature = feature;
        this.i18n = i18n;
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
        back.setText(i18n.get("wizard.back"));
        next.setId(idPrefix + "-next");
        next.getStyleClass().add("accent");
        next.setText(i18n.get("wizard.next"));
        next.setDefaultButton(true);
        cancel.setId(idPrefix + "-cancel");
        cancel.setText(i18n.get("wizard.cancel"));
        cancel.setCancelButton(true);
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox buttons = new HBox(10, cancel, spacer, back, next);
        buttons.setPadding(new Insets(10, 16, 12, 16));
        root = new BorderPane(centre);
        root.setLeft(steps);
        root.setBottom(buttons);
        root.getStylesheets().add(Objects.requireNonNull(WizardFrame.class.getResource(CSS)).toExternalForm());
    }

    /** A message line on a wizard page, in {@code style} (wizard-message-error, -warning, -ok), wrapped. */
    public static Label message(String style, String text) {
        Label l = Wrapped.wrapped(new Label(text));
        l.setMaxWidth(Double.MAX_VALUE);
        l.getStyleClass().add(style);
        return l;
    }

    /** {@code n} in a scroll pane as wide as the page, taking the page's free height. */
    public static ScrollPane scroll(Node n) {
        ScrollPane s = new ScrollPane(n);
        s.setFitToWidth(true);
        VBox.setVgrow(s, Priority.ALWAYS);
        return s;
    }

    /** A wizard page: its introduction (wrapped), then its content. */
    public static VBox page(String intro, Node... content) {
        VBox box = new VBox(10, Wrapped.wrapped(new Label(intro)));
        box.getChildren().addAll(content);
        return box;
    }

    /** The key of a step's title: {@code <feature>.wizard.step.<step>}, the name in lower camel case (hostPlan). */
    public static String stepKey(String feature, Enum<?> step) {
        StringBuilder b = new StringBuilder(feature).append(".wizard.step.");
        boolean upper = false;
        for (char c : step.name().toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                b.append(upper ? c : Character.toLowerCase(c));
                upper = false;
            }
        }
        return b.toString();
    }

    /**
     * Puts up step {@code current}: its title, and every step on the left, the current one marked, those before it
     * done, the {@code skipped} ones "(not needed)". FX thread.
     */
    public <S extends Enum<S>> void show(S current, Set<S> skipped) {
        title.setText(i18n.get(stepKey(feature, current)));
        steps.getChildren().clear();
        for (S s : current.getDeclaringClass().getEnumConstants()) {
            Label l = new Label(i18n.get(stepKey(feature, s)));
            l.getStyleClass().add("wizard-step");
            l.setId(idPrefix + "-step-" + s.name().toLowerCase(Locale.ROOT));
            l.setMaxWidth(Double.MAX_VALUE);
            if (s == current) {
                l.getStyleClass().add("current");
            } else if (skipped.contains(s)) {
                l.getStyleClass().add("skipped");
                l.setText(i18n.get("wizard.step.skipped", l.getText()));
            } else if (s.ordinal() < current.ordinal()) {
                l.getStyleClass().add("done");
            }
            steps.getChildren().add(l);
        }
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
