package io.gpuforge.ui.share;

import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.share.ShareService;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.passthrough.Verdict;
import io.gpuforge.domain.share.ContainerInfo;
import io.gpuforge.domain.share.ShareReadiness;
import io.gpuforge.ui.common.FxHostKeyPrompt;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.Icons;
import io.gpuforge.ui.common.TextCells;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.common.Wrapped;
import java.util.Objects;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressIndicator;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.kordamp.ikonli.feather.Feather;

/**
 * "Add a GPU to a container…": the GPUs of the container's node with whether each can be shared and why not, the
 * host plan first for one that needs it (its own window, a diff), then the GPU's devN entries added to the stopped
 * container at its next free indexes. A running container is refused with the reason. Open it with {@link #open}.
 */
public final class AddGpuWindow {

    private final UiContext ui;
    private final ShareServices services;
    private final I18n i18n;
    private final ConnectionInfo connection;
    private final String node;
    private final int vmid;
    private final Runnable changed;
    private final Stage stage = new Stage();
    private final ObservableList<ShareReadiness> gpus = FXCollections.observableArrayList();
    private ShareService.HostGpus names = new ShareService.HostGpus(java.util.List.of(), java.util.Map.of());
    private final ListView<ShareReadiness> list = new ListView<>(gpus);
    private final VBox detail = new VBox(6);
    private final Label state = Wrapped.wrapped(new Label());
    private final ProgressIndicator busy = new ProgressIndicator();
    private final Button add = new Button();
    private final Button plan = new Button();

    private AddGpuWindow(UiContext ui, ShareServices services, Window owner, ConnectionInfo c, String node, int vmid,
                         Runnable changed) {
        this.ui = ui;
        this.services = services;
        this.i18n = ui.i18n();
        this.connection = c;
        this.node = node;
        this.vmid = vmid;
        this.changed = changed;
        if (owner != null) {
            stage.initOwner(owner);
        }
        stage.setTitle(i18n.get("share.addGpu.title", vmid, node));
        stage.setScene(scene());
    }

    /** Opens the window for container {@code vmid} on {@code node}; {@code changed} runs after its devices changed. */
    public static Stage open(UiContext ui, ShareServices services, Window owner, ConnectionInfo c, String node,
                             int vmid, Runnable changed) {
        AddGpuWindow w = new AddGpuWindow(ui, services, owner, c, node, vmid, changed);
        w.stage.show();
        w.load();
        return w.stage;
    }

    private HostTarget host() {
        return new HostTarget.Linked(connection, node);
    }

    private Scene scene() {
        list.setId("addgpu-gpus");
        list.setPrefHeight(150);
        list.setCellFactory(TextCells.of(r -> ContainerWizardPages.gpuLine(r, names, i18n)));
        list.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> select(b));
        add.setId("addgpu-add");
        add.setText(i18n.get("share.addGpu.add"));
        add.setGraphic(Icons.of(Feather.PLUS));
        add.getStyleClass().add("accent");
        add.setDisable(true);
        add.setOnAction(e -> add());
        plan.setId("addgpu-plan");
        plan.setText(i18n.get("share.addGpu.plan"));
        plan.setVisible(false);
        plan.managedProperty().bind(plan.visibleProperty());
        plan.setOnAction(e -> openPlan());
        Button close = new Button(i18n.get("share.plan.close"));
        close.setId("addgpu-close");
        close.setOnAction(e -> stage.close());
        busy.setPrefSize(20, 20);
        busy.setVisible(false);
        state.setId("addgpu-state");
        detail.setId("addgpu-detail");
        ScrollPane scroll = new ScrollPane(detail);
        scroll.setFitToWidth(true);
        VBox.setVgrow(scroll, Priority.ALWAYS);
        HBox buttons = new HBox(10, add, plan, close, busy);
        buttons.setAlignment(Pos.CENTER_LEFT);
        VBox root = new VBox(10, Wrapped.wrapped(new Label(i18n.get("share.addGpu.intro", vmid, node))), list, scroll,
                buttons, state);
        root.setPadding(new Insets(16));
        root.setId("addgpu-window");
        root.getStylesheets().add(Objects.requireNonNull(AddGpuWindow.class.getResource(PlanWindow.CSS))
                .toExternalForm());
        Scene scene = new Scene(root, 820, 600);
        ui.theme().style(scene);
        return scene;
    }

    private void load() {
        busy.setVisible(true);
        ui.tasks().supply(i18n.get("share.task.gpus"), () -> services.shares().readinessOfAll(host(),
                new FxHostKeyPrompt(ui.dialogs(), i18n))).onSuccess(all -> {
                    ShareReadiness was = list.getSelectionModel().getSelectedItem();
                    names = all;
                    gpus.setAll(all.gpus());
                    all.gpus().stream().filter(r -> was != null && r.gpu().equals(was.gpu())).findFirst()
                            .ifPresent(r -> list.getSelectionModel().select(r));
                }).onError(e -> state.setText(i18n.get("share.plan.cannot", e.getMessage())))
                .andFinally(() -> busy.setVisible(false)).start();
    }

    private void select(ShareReadiness r) {
        detail.getChildren().clear();
        add.setDisable(r == null || r.verdict().kind() != Verdict.Kind.READY);
        plan.setVisible(r != null && r.verdict().kind() == Verdict.Kind.NEEDS_HOST_SETUP);
        if (r == null) {
            return;
        }
        detail.getChildren().addAll(ContainerWizardPages.checks(r, i18n));
        detail.getChildren().add(new Label(i18n.get("share.addGpu.devices", String.join(", ", r.devices().stream()
                .map(d -> d.value()).toList()))));
    }

    private void openPlan() {
        ShareReadiness r = list.getSelectionModel().getSelectedItem();
        FxHostKeyPrompt prompt = new FxHostKeyPrompt(ui.dialogs(), i18n);
        PlanWindow.open(ui, stage, i18n.get("share.hostPlan.title", r.gpu(), node), i18n.get("share.hostPlan.intro",
                r.gpu()), () -> services.shares().hostPlan(host(), r.gpu(), prompt),
                (confirm, progress) -> services.shares().applyHostPlan(host(), r.gpu(), confirm, progress, prompt),
                this::load);
    }

    private void add() {
        ShareReadiness r = list.getSelectionModel().getSelectedItem();
        busy.setVisible(true);
        add.setDisable(true);
        ui.tasks().supply(i18n.get("share.task.addGpu", r.gpu(), vmid), () -> services.containers().addGpu(
                services.sessions().of(connection), node, vmid, r)).onSuccess((ContainerInfo ct) -> {
                    state.setText(i18n.get("share.addGpu.done", r.gpu(), vmid, String.join(", ", ct.devices()
                            .entrySet().stream().map(e -> "dev" + e.getKey() + ": " + e.getValue().value()).toList())));
                    changed.run();
                }).onError(e -> {
                    state.setText(i18n.get("share.addGpu.refused", e.getMessage()));
                    add.setDisable(false);
                }).andFinally(() -> busy.setVisible(false)).start();
    }
}
