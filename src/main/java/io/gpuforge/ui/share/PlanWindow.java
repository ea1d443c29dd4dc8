package io.gpuforge.ui.share;

import io.gpuforge.app.passthrough.ApplyProgressLines;
import io.gpuforge.app.passthrough.PassthroughService;
import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.ApplyPane;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.common.Wrapped;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import javafx.application.Platform;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.kordamp.ikonli.feather.Feather;

/**
 * A host plan shown before anything changes: its notes, the diff of every file and the commands, then "Apply" (asked
 * once more) with the output of each step and the journal it is undone with. The plan is made again when it is
 * applied, from the host as it is then: when that differs from the one shown, nothing is applied and the window
 * says so. Used for moving a container to devN entries and for a node's sharing plan.
 */
public final class PlanWindow {

    /** Applies the plan that {@code confirm} accepts (made again from the host). */
    public interface Apply {
        Optional<PassthroughService.Applied> apply(Predicate<PassthroughPlan> confirm, ApplyProgress progress)
                throws Exception;
    }

    static final String CSS = "/css/passthrough.css";
    private final UiContext ui;
    private final I18n i18n;
    private final Stage stage = new Stage();
    private final Button apply = new Button();
    private final Button close = new Button();
    private final ApplyPane pane = new ApplyPane("plan", 72, apply, close);
    private final VBox detail = pane.detail();
    private final ObservableList<String> output = pane.output();
    private final ProgressIndicator busy = pane.busy();
    private final Label state = pane.state();
    private PassthroughPlan shown;

    private PlanWindow(UiContext ui, Window owner, String title, String intro) {
        this.ui = ui;
        this.i18n = ui.i18n();
        if (owner != null) {
            stage.initOwner(owner);
        }
        stage.setTitle(title);
        stage.setScene(scene(intro));
    }

    /**
     * Opens the window, makes the plan in the background and shows it; {@code done} runs on the FX thread after it
     * was applied.
     */
    public static Stage open(UiContext ui, Window owner, String title, String intro, Callable<PassthroughPlan> plan,
                             Apply apply, Runnable done) {
        PlanWindow w = new PlanWindow(ui, owner, title, intro);
        w.apply.setOnAction(e -> w.apply(apply, done));
        w.stage.show();
        w.load(plan);
        return w.stage;
    }

    private Scene scene(String intro) {
        apply.setId("plan-apply");
        apply.setText(i18n.get("share.plan.apply"));
        apply.setGraphic(Icons.of(Feather.CHECK));
        apply.getStyleClass().add("accent");
        apply.setDisable(true);
        close.setId("plan-close");
        close.setText(i18n.get("share.plan.close"));
        close.setOnAction(e -> stage.close());
        VBox root = new VBox(10, Wrapped.wrapped(new Label(intro)));
        root.getChildren().addAll(pane.nodes());
        root.setPadding(new Insets(16));
        root.setId("plan-window");
        root.getStylesheets().add(Objects.requireNonNull(PlanWindow.class.getResource(CSS)).toExternalForm());
        Scene scene = new Scene(root, 900, 720);
        ui.theme().style(scene);
        return scene;
    }

    /**
     * Accepts the plan made again at apply time only when it changes what the one shown changes (the same edits and
     * commands): what the user confirmed is what is applied.
     */
    static Predicate<PassthroughPlan> sameAs(PassthroughPlan shown) {
        return p -> p.changesAs(shown);
    }

    private void load(Callable<PassthroughPlan> plan) {
        busy.setVisible(true);
        state.setText(i18n.get("share.plan.making"));
        ui.tasks().supply(i18n.get("share.task.plan"), plan).onSuccess(p -> {
            shown = p;
            detail.getChildren().setAll(PlanView.of(p, i18n));
            state.setText(p.hostChangesNothing() && p.commands().isEmpty() ? i18n.get("share.plan.nothing") : "");
            apply.setDisable(p.hostChangesNothing() && p.commands().isEmpty());
        }).onError(e -> state.setText(i18n.get("share.plan.cannot", e.getMessage())))
                .andFinally(() -> busy.setVisible(false)).start();
    }

    private void apply(Apply work, Runnable done) {
        if (shown == null || !ui.dialogs().confirm("share.plan.confirmTitle", i18n.get("share.plan.confirm",
                shown.host(), shown.edits().size(), shown.commands().size()))) {
            return;
        }
        PassthroughPlan expected = shown;
        apply.setDisable(true);
        busy.setVisible(true);
        output.clear();
        ApplyProgress progress = new ApplyProgressLines(l -> Platform.runLater(() -> output.add(l)),
                ApplyProgressLines.Style.SYMBOLS);
        ui.tasks().supply(i18n.get("share.task.apply"), () -> work.apply(sameAs(expected), progress))
                .onSuccess(applied -> {
                    if (applied.isEmpty()) {
                        state.setText(i18n.get("share.plan.changed"));
                        return;
                    }
                    state.setText(i18n.get("share.plan.applied", applied.get().outcome().journalId(),
                            applied.get().host()));
                    done.run();
                }).onError(e -> {
                    state.setText(i18n.get("share.plan.failed", e.getMessage()));
                    apply.setDisable(false);
                }).andFinally(() -> busy.setVisible(false)).start();
    }
}
