package io.gpuforge.ui.passthrough;

import io.gpuforge.app.words.Words;
import io.gpuforge.ui.common.DiffView;
import io.gpuforge.app.host.HostKeyPrompt;
import io.gpuforge.app.host.HostReboot;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.passthrough.PassthroughService;
import io.gpuforge.app.passthrough.PlanHistory;
import io.gpuforge.domain.passthrough.ApplyOutcome;
import io.gpuforge.app.passthrough.ApplyProgressLines;
import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.ui.common.FxHostKeyPrompt;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.ApplyPane;
import io.gpuforge.ui.common.UiContext;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.kordamp.ikonli.feather.Feather;

/**
 * Rollback from a host: the plans GPUForge applied there (from the manifests of its backups, newest first) with
 * date, device and files; the diff back of the one chosen; after a confirmation the rollback with its output, then
 * the reboot (asked first) and the verify that the running host no longer has what was rolled back. Open it with
 * {@link #open}.
 */
public final class RollbackWindow {

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT)
            .withZone(ZoneId.systemDefault());
    private final UiContext ui;
    private final PassthroughServices services;
    private final I18n i18n;
    private final HostTarget target;
    private final HostKeyPrompt prompt;
    private final Stage stage = new Stage();
    private final ObservableList<PlanHistory.AppliedPlan> plans = FXCollections.observableArrayList();
    private final ListView<PlanHistory.AppliedPlan> list = new ListView<>(plans);
    private final Button rollback = new Button();
    private final Button reboot = new Button();
    private final ApplyPane pane = new ApplyPane("rollback", 140, rollback, reboot);
    private final VBox detail = pane.detail();
    private final ObservableList<String> output = pane.output();
    private final OutputBuffer buffer = new OutputBuffer(output::addAll);
    private final ProgressIndicator busy = pane.busy();
    private final Label state = pane.state();
    private final AtomicBoolean closed = new AtomicBoolean();
    private PlanHistory.History history;
    private String rolledBack;

    private RollbackWindow(UiContext ui, PassthroughServices services, Window owner, HostTarget target) {
        this.ui = ui;
        this.services = services;
        this.i18n = ui.i18n();
        this.target = target;
        this.prompt = new FxHostKeyPrompt(ui.dialogs(), ui.i18n());
        if (owner != null) {
            stage.initOwner(owner);
        }
        stage.setTitle(i18n.get("rollback.title", target.describe()));
        stage.setScene(scene());
        stage.setOnHidden(e -> closed.set(true));
    }

    /** Opens the rollback of a host (a node's linked host, a saved SSH host): the host's menu "Roll back…". */
    public static Stage open(UiContext ui, PassthroughServices services, Window owner, HostTarget host) {
        RollbackWindow w = new RollbackWindow(ui, services, owner, host);
        w.stage.show();
        w.load("");
        return w.stage;
    }

    private Scene scene() {
        Label intro = PassthroughWizardPages.wrapped(new Label(i18n.get("rollback.intro")));
        list.setId("rollback-plans");
        list.setPrefHeight(150);
        list.setCellFactory(v -> new ListCell<>() {
            @Override
            protected void updateItem(PlanHistory.AppliedPlan p, boolean empty) {
                super.updateItem(p, empty);
                setText(empty || p == null ? null : i18n.get("rollback.plan", WHEN.format(p.at()),
                        p.functions().stream().map(PciAddress::toString).collect(Collectors.joining(", ")),
                        String.join(", ", p.files()), p.state().name().toLowerCase(Locale.ROOT).replace('_', ' ')));
            }
        });
        list.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> select(b));
        rollback.setId("rollback-run");
        rollback.setText(i18n.get("rollback.run"));
        rollback.setGraphic(Icons.of(Feather.ROTATE_CCW));
        rollback.getStyleClass().add("accent");
        rollback.setDisable(true);
        rollback.setOnAction(e -> rollBack());
        reboot.setId("rollback-reboot");
        reboot.setText(i18n.get("passthrough.reboot.now"));
        reboot.setGraphic(Icons.of(Feather.REFRESH_CW));
        reboot.setDisable(true);
        reboot.setOnAction(e -> rebootAndVerify());
        VBox root = new VBox(10, intro, list);
        root.getChildren().addAll(pane.nodes());
        root.setPadding(new Insets(16));
        root.setId("rollback-window");
        root.getStylesheets().add(Objects.requireNonNull(RollbackWindow.class.getResource(ReadinessView.CSS))
                .toExternalForm());
        Scene scene = new Scene(root, 980, 760);
        ui.theme().style(scene);
        return scene;
    }

    private PassthroughService passthrough() {
        return services.passthrough();
    }

    /** Lists the host's plans again; {@code outcome}: what the last action found, still said once they are listed. */
    private void load(String outcome) {
        busy.setVisible(true);
        ui.tasks().supply(i18n.get("rollback.task.list"), () -> passthrough().history().list(target, prompt))
                .onSuccess(h -> {
                    history = h;
                    plans.setAll(h.plans());
                    state.setText(h.plans().isEmpty() && outcome.isEmpty() ? i18n.get("rollback.none") : outcome);
                    if (!h.plans().isEmpty()) {
                        list.getSelectionModel().select(0);
                    }
                }).onError(this::failed).andFinally(() -> busy.setVisible(false)).start();
    }

    private void select(PlanHistory.AppliedPlan p) {
        detail.getChildren().clear();
        rollback.setDisable(true);
        if (p == null) {
            return;
        }
        Optional<String> cannot = history.cannotRollBack(p.id());
        if (cannot.isPresent()) {
            detail.getChildren().add(PassthroughWizardPages.message("wizard-message-info", cannot.get()));
            return;
        }
        busy.setVisible(true);
        ui.tasks().supply(i18n.get("rollback.task.diff"), () -> passthrough().history().diffBack(target, p.id(), prompt))
                .onSuccess(edits -> showDiff(p, edits)).onError(this::failed)
                .andFinally(() -> busy.setVisible(false)).start();
    }

    private void showDiff(PlanHistory.AppliedPlan p, List<PassthroughPlan.FileEdit> edits) {
        detail.getChildren().setAll(new Label(i18n.get("rollback.diff", p.id(), edits.size())), new DiffView(edits));
        rollback.setDisable(false);
    }

    private void rollBack() {
        PlanHistory.AppliedPlan p = list.getSelectionModel().getSelectedItem();
        if (p == null || !ui.dialogs().confirm("rollback.title.short", i18n.get("rollback.confirm", p.id(),
                String.join(", ", p.files()), target.describe()))) {
            return;
        }
        rollback.setDisable(true);
        busy.setVisible(true);
        output.clear();
        buffer.start();
        ApplyProgress progress = new ApplyProgressLines(buffer::add, ApplyProgressLines.Style.SYMBOLS);
        ui.tasks().supply(i18n.get("rollback.task.run"), () -> passthrough().history().rollback(target, p.id(), progress,
                prompt)).onSuccess(o -> {
                    buffer.stop();
                    rolledBack = p.id();
                    state.setText(i18n.get(o.status() == ApplyOutcome.Status.ROLLED_BACK ? "rollback.done"
                            : "rollback.nothing", p.id()));
                    reboot.setDisable(passthrough().reboots(services.sessions()).cannotReboot(target).isPresent());
                }).onError(e -> {
                    buffer.stop();
                    failed(e);
                }).andFinally(() -> busy.setVisible(false)).start();
    }

    private void rebootAndVerify() {
        if (!ui.dialogs().confirm("rollback.title.short", i18n.get("rollback.rebootConfirm", target.describe()))) {
            return;
        }
        reboot.setDisable(true);
        busy.setVisible(true);
        buffer.start();
        HostReboot r = passthrough().reboots(services.sessions());
        String id = rolledBack;
        RebootLines lines = new RebootLines(i18n);
        ui.tasks().supply(i18n.get("passthrough.task.reboot"), () -> {
            // the log keeps the changes of phase, not a line per poll
            r.reboot(target, (phase, waited, d) -> lines.on(phase, waited, d).logLine().ifPresent(buffer::add),
                    closed::get, prompt);
            return passthrough().verifyRollback(target, id, prompt);
        }).onSuccess(v -> {
            buffer.stop();
            String verified = i18n.get(v.ok() ? "rollback.verified" : "rollback.notVerified", v.items().stream()
                    .filter(i -> !i.ok()).map(i -> new Words(i18n.getLocale()).text(i.detail()))
                    .collect(Collectors.joining("; ")));
            state.setText(verified);
            load(verified);
        }).onError(e -> {
            buffer.stop();
            failed(e);
            reboot.setDisable(false); // refused (guests still running) or not back: the user may try again
        }).andFinally(() -> busy.setVisible(false)).start();
    }

    private void failed(Throwable e) {
        state.setText(i18n.get("rollback.failed", e.getMessage()));
    }
}
