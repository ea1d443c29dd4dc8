package io.gpuforge.ui.diagnose;

import io.gpuforge.app.words.Words;
import io.gpuforge.app.diagnose.FixService;
import io.gpuforge.app.passthrough.ApplyProgressLines;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.diagnose.Collected;
import io.gpuforge.domain.diagnose.Diagnosis;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.ui.common.DiffView;
import io.gpuforge.ui.common.FxHostKeyPrompt;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.common.Wrapped;
import java.util.List;
import java.util.Objects;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.kordamp.ikonli.feather.Feather;

/**
 * "Why did it fail?" for one VM: GPUForge collects the evidence itself (the last failed start's task log, the
 * configuration, the node's kernel log and GPU functions over its host link, the guest over its agent), names the
 * cause and lists what it read or could not; the fix then opens as a plan (the VM's configuration diff, the host's
 * file diffs and commands, the notes), is applied only on the user's click, says what it checked and what not, and
 * rolls back. Everything runs off the FX thread. Open it with {@link #open}.
 */
public final class VmDiagnosisWindow {

    private final UiContext ui;
    private final DiagnoseServices services;
    private final I18n i18n;
    private final ConnectionInfo connection;
    private final VmRef vm;
    private final Stage stage = new Stage();
    private final DiagnosisView result;
    private final VBox collected = new VBox(2);
    private final VBox fix = new VBox(8);
    private final VBox output = new VBox(2);
    private final Label status = new Label();
    private final VBox body = new VBox(12);
    private final ScrollPane scroll = new ScrollPane();
    private final ProgressIndicator busy = new ProgressIndicator();
    private final Button plan = new Button();
    private final Button apply = new Button();
    private final Button rollback = new Button();
    private Diagnosis diagnosis;
    private FixService.Proposal proposal;
    private FixService.Result applied;

    private VmDiagnosisWindow(UiContext ui, DiagnoseServices services, Window owner, ConnectionInfo connection,
                              VmRef vm) {
        this.ui = ui;
        this.services = services;
        this.i18n = ui.i18n();
        this.connection = connection;
        this.vm = vm;
        this.result = new DiagnosisView(i18n, e -> { });
        if (owner != null) {
            stage.initOwner(owner);
        }
        stage.setTitle(i18n.get("diagnose.vm.title", vm.id(), vm.node()));
        stage.setScene(scene());
    }

    /** Opens the window for {@code vm} and starts collecting; returns it, shown. */
    public static Stage open(UiContext ui, DiagnoseServices services, Window owner, ConnectionInfo connection,
                             VmRef vm) {
        VmDiagnosisWindow w = new VmDiagnosisWindow(ui, services, owner, connection, vm);
        w.stage.show();
        w.diagnose();
        return w.stage;
    }

    private Scene scene() {
        Label title = Wrapped.wrapped(new Label(i18n.get("diagnose.vm.title", vm.id(), vm.node())));
        title.setId("vm-diagnose-title");
        title.getStyleClass().add("title-3");
        Label intro = Wrapped.wrapped(new Label(i18n.get("diagnose.vm.intro")));
        intro.getStyleClass().add("text-muted");
        busy.setPrefSize(20, 20);
        busy.setVisible(false);
        status.setId("vm-diagnose-status");
        Wrapped.wrapped(status);
        HBox head = new HBox(10, busy, status);
        head.setAlignment(Pos.CENTER_LEFT);

        collected.setId("vm-diagnose-collected");
        fix.setId("vm-diagnose-fix");
        output.setId("vm-diagnose-output");
        result.setPadding(new Insets(4, 8, 4, 8));
        // the fix and what applying it did under the cause, what was read last
        body.getChildren().setAll(result, fix, output, section("diagnose.vm.collected"), collected);
        body.setPadding(new Insets(4, 8, 4, 8));
        scroll.setContent(body);
        scroll.setFitToWidth(true);
        VBox.setVgrow(scroll, Priority.ALWAYS);

        button(plan, "vm-diagnose-plan", "diagnose.vm.plan", Feather.CLIPBOARD, this::planFix);
        button(apply, "vm-diagnose-apply", "diagnose.vm.apply", Feather.CHECK, this::applyFix);
        apply.getStyleClass().add("accent");
        button(rollback, "vm-diagnose-rollback", "diagnose.vm.rollback", Feather.ROTATE_CCW, this::rollBack);
        Button close = new Button(i18n.get("diagnose.vm.close"));
        close.setId("vm-diagnose-close");
        close.setOnAction(e -> stage.close());
        HBox buttons = new HBox(10, plan, apply, rollback, close);
        buttons.setAlignment(Pos.CENTER_RIGHT);
        enable(false, false, false);

        VBox root = new VBox(10, title, intro, head, scroll, buttons);
        root.setPadding(new Insets(16));
        root.setId("vm-diagnose-window");
        root.getStylesheets().add(Objects.requireNonNull(DiagnoseWindow.class.getResource(DiagnoseWindow.CSS))
                .toExternalForm());
        // the plan's diffs, coloured as in every plan window
        root.getStylesheets().add(Objects.requireNonNull(DiagnoseWindow.class.getResource("/css/passthrough.css"))
                .toExternalForm());
        Scene scene = new Scene(root, 1020, 800);
        ui.theme().style(scene);
        return scene;
    }

    private void button(Button b, String id, String key, Feather icon, Runnable action) {
        b.setId(id);
        b.setText(i18n.get(key));
        b.setGraphic(Icons.of(icon));
        b.setOnAction(e -> action.run());
    }

    private void enable(boolean canPlan, boolean canApply, boolean canRollBack) {
        plan.setDisable(!canPlan);
        apply.setDisable(!canApply);
        rollback.setDisable(!canRollBack);
    }

    private ConnectionSession session() {
        return services.sessions().of(connection);
    }

    private FxHostKeyPrompt prompt() {
        return new FxHostKeyPrompt(ui.dialogs(), i18n);
    }

    private void working(String key) {
        busy.setVisible(true);
        status.setText(i18n.get(key, vm.id()));
        enable(false, false, false);
    }

    private void failed(Throwable e) {
        status.setText(i18n.get("diagnose.vm.failed", e.getMessage() == null ? e.toString() : e.getMessage()));
        enable(diagnosis != null && diagnosis.known(), proposal != null && !proposal.changesNothing()
                && applied == null, applied != null);
    }

    /** Collects the VM's evidence and names the cause; also for tests. */
    void diagnose() {
        working("diagnose.vm.task");
        FxHostKeyPrompt prompt = prompt();
        ui.tasks().supply(i18n.get("diagnose.vm.task", vm.id()), () -> services.diagnosis().vm(session(), connection,
                        vm, services.hostLogs(), prompt, List.of(), () -> null))
                .onSuccess(this::render).onError(this::failed).andFinally(() -> busy.setVisible(false)).start();
    }

    private void render(Diagnosis d) {
        diagnosis = d;
        result.render(d);
        collected.getChildren().clear();
        Words words = new Words(i18n.getLocale());
        for (Collected c : d.collected()) {
            Label l = Wrapped.wrapped(new Label(c.read() ? i18n.get("diagnose.vm.read", words.text(c.label()), c.lines(),
                    c.millis()) : i18n.get("diagnose.vm.notRead", words.text(c.label()),
                    c.problem().map(words::text).orElse(""))));
            l.getStyleClass().add(c.read() ? "text-muted" : "wizard-message-info");
            collected.getChildren().add(l);
        }
        status.setText(d.known() ? i18n.get("diagnose.vm.found", words.text(d.causes().get(0).title()))
                : i18n.get("diagnose.vm.noCause"));
        enable(d.known(), false, false);
    }

    private void planFix() {
        working("diagnose.vm.task.plan");
        FxHostKeyPrompt prompt = prompt();
        ui.tasks().supply(i18n.get("diagnose.vm.task.plan", vm.id()), () -> services.fixes().propose(session(),
                        connection, vm, diagnosis.causes().get(0), prompt))
                .onSuccess(this::showPlan).onError(this::failed).andFinally(() -> busy.setVisible(false)).start();
    }

    private void showPlan(FixService.Proposal p) {
        proposal = p;
        applied = null;
        output.getChildren().clear();
        fix.getChildren().setAll(section("diagnose.vm.fixPlan"));
        p.vmFix().filter(f -> !f.changesNothing()).ifPresent(f -> fix.getChildren().addAll(
                caption(i18n.get("diagnose.vm.vmChange", vm.id())), new DiffView(f.diff())));
        p.host().filter(h -> !h.hostChangesNothing()).ifPresent(h -> {
            fix.getChildren().addAll(caption(i18n.get("diagnose.vm.hostChange", vm.node())), new DiffView(h.edits()));
            if (!h.commands().isEmpty()) {
                fix.getChildren().add(caption(i18n.get("diagnose.vm.commands")));
                h.commands().forEach(c -> fix.getChildren().add(line("diff-line", "$ " + c)));
            }
        });
        Words words = new Words(i18n.getLocale());
        p.notDone().forEach(n -> fix.getChildren().add(line("wizard-message-info", i18n.get("diagnose.vm.note",
                words.text(n)))));
        status.setText(p.changesNothing() ? i18n.get("diagnose.vm.nothing") : i18n.get("diagnose.vm.planned"));
        enable(true, !p.changesNothing(), false);
        reveal(fix);
    }

    private void applyFix() {
        working("diagnose.vm.task.apply");
        output.getChildren().clear();
        FxHostKeyPrompt prompt = prompt();
        FixService.Proposal p = proposal;
        ApplyProgressLines progress = new ApplyProgressLines(l -> Platform.runLater(() -> output.getChildren()
                .add(line("diff-line", l))), ApplyProgressLines.Style.SYMBOLS);
        ui.tasks().supply(i18n.get("diagnose.vm.task.apply", vm.id()), () -> services.fixes().apply(session(), p,
                        progress, prompt))
                .onSuccess(this::showApplied).onError(this::failed).andFinally(() -> busy.setVisible(false)).start();
    }

    private void showApplied(FixService.Result r) {
        applied = r;
        Words words = new Words(i18n.getLocale());
        r.verified().forEach(v -> output.getChildren().add(line("wizard-message-ok", i18n.get("diagnose.vm.verified",
                words.text(v)))));
        r.notChecked().forEach(n -> output.getChildren().add(line("wizard-message-info",
                i18n.get("diagnose.vm.notChecked", words.text(n)))));
        status.setText(i18n.get("diagnose.vm.applied", r.fix().id()));
        enable(false, false, true);
        reveal(output);
    }

    private void rollBack() {
        working("diagnose.vm.task.rollback");
        FxHostKeyPrompt prompt = prompt();
        String id = applied.fix().id();
        ApplyProgressLines progress = new ApplyProgressLines(l -> Platform.runLater(() -> output.getChildren()
                .add(line("diff-line", l))), ApplyProgressLines.Style.SYMBOLS);
        ui.tasks().supply(i18n.get("diagnose.vm.task.rollback", vm.id()), () -> services.fixes().rollback(session(),
                        connection, id, progress, prompt))
                .onSuccess(f -> {
                    applied = null;
                    proposal = null;
                    status.setText(i18n.get("diagnose.vm.rolledBack", f.id()));
                    enable(true, false, false);
                }).onError(this::failed).andFinally(() -> busy.setVisible(false)).start();
    }

    /** Scrolls {@code n} to the top of the view, once laid out. */
    private void reveal(Node n) {
        Platform.runLater(() -> {
            double range = body.getHeight() - scroll.getViewportBounds().getHeight();
            if (range > 0) {
                scroll.setVvalue(Math.min(1, n.getBoundsInParent().getMinY() / range));
            }
        });
    }

    private Node section(String key) {
        Label l = new Label(i18n.get(key));
        l.getStyleClass().add("title-4");
        return l;
    }

    private static Label caption(String text) {
        Label l = Wrapped.wrapped(new Label(text));
        l.getStyleClass().add("text-muted");
        return l;
    }

    private static Label line(String style, String text) {
        Label l = Wrapped.wrapped(new Label(text));
        l.getStyleClass().add(style);
        l.setMaxWidth(Double.MAX_VALUE);
        return l;
    }
}
