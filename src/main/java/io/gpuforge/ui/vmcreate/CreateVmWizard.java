package io.gpuforge.ui.vmcreate;

import io.gpuforge.app.vmcreate.SnippetCleanup;
import io.gpuforge.app.vmcreate.VmProvisioning;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.NodeState;
import io.gpuforge.domain.SpecRefusedException;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmTemplate;
import io.gpuforge.ui.common.BackgroundTasks;
import io.gpuforge.ui.common.FxHostKeyPrompt;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.common.WindowLinks;
import io.gpuforge.ui.common.WizardFrame;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.concurrent.atomic.AtomicBoolean;
import javafx.application.Platform;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.BorderPane;
import javafx.stage.Stage;
import javafx.stage.Window;
import javafx.stage.WindowEvent;

/**
 * The VM creation wizard: target → template → name → resources → storage and network → cloud-init → GPU →
 * summary → create with live progress, then start and console. Each page is checked before Next
 * ({@link CreateVmWizardModel#pageValid}); a refusal of the hypervisor takes the user back to the field it names.
 * Open it with {@link #open}.
 */
public final class CreateVmWizard {

    /** What the wizard starts with: a connection, a node of it, a template (by id), each optional. */
    public record Preselection(Optional<ConnectionInfo> connection, Optional<String> node, Optional<String> template) {
        public Preselection {
            Objects.requireNonNull(connection);
            Objects.requireNonNull(node);
            Objects.requireNonNull(template);
        }

        public static Preselection none() {
            return new Preselection(Optional.empty(), Optional.empty(), Optional.empty());
        }

        /** A node of a connection, as the tree's context menu of a node offers. */
        public static Preselection node(ConnectionInfo connection, String node) {
            return new Preselection(Optional.of(connection), Optional.of(node), Optional.empty());
        }
    }

    private final UiContext ui;
    private final VmCreateServices services;
    private final CreateVmWizardModel model;
    private final Stage stage = new Stage();
    private final ObjectProperty<CreateVmWizardModel.Step> page = new SimpleObjectProperty<>(
            CreateVmWizardModel.Step.TARGET);
    private final SimpleBooleanProperty busy = new SimpleBooleanProperty(false);
    final ObservableList<ConnectionInfo> connections = FXCollections.observableArrayList();
    final ObservableList<String> nodes = FXCollections.observableArrayList();
    final ObservableList<VmTemplate> templates = FXCollections.observableArrayList();
    private final CreateVmWizardPages pages;
    private final WizardFrame frame;
    /** The cancel flag of the operation running now (a create, a setup): a new one for each, so one cancel stops one. */
    private volatile AtomicBoolean cancel = new AtomicBoolean();
    private Optional<VmRef> created = Optional.empty();
    /** The name the created VM was given (the name field may have changed since). */
    private String createdName = "";

    private CreateVmWizard(UiContext ui, VmCreateServices services, Window owner, Preselection pre) {
        this.ui = ui;
        this.services = services;
        this.model = new CreateVmWizardModel(ui.i18n());
        this.pages = new CreateVmWizardPages(ui, services, model, this);
        if (owner != null) {
            stage.initOwner(owner);
        }
        stage.setTitle(ui.i18n().get("vmcreate.title"));
        this.frame = new WizardFrame("vmc", "vmcreate", ui.i18n(), busy, pages.pageProblem(page));
        BorderPane root = frame.root();
        root.setId("create-vm-wizard");
        ScrollPane center = new ScrollPane();
        center.setFitToWidth(true);
        center.contentProperty().bind(Bindings.createObjectBinding(() -> pages.page(page.get()), page));
        frame.content().getChildren().setAll(center);
        page.addListener((o, a, p) -> frame.show(p, Set.of()));
        frame.show(page.get(), Set.of());
        buttons();
        Scene scene = new Scene(root, 900, 640);
        ui.theme().style(scene);
        stage.setScene(scene);
        stage.setOnHidden(e -> cancel.set(true));
        model.connection.addListener((o, a, c) -> connectionChosen(c));
        model.node.addListener((o, a, n) -> loadChoices());
        load(pre);
    }

    /**
     * Opens the wizard over {@code owner}. The toolbar's and the File menu's "Create VM" pass
     * {@link Preselection#none()}; a node's context menu passes {@link Preselection#node}.
     */
    public static CreateVmWizard open(UiContext ui, VmCreateServices services, Window owner,
                                      Optional<Preselection> preselection) {
        CreateVmWizard w = new CreateVmWizard(ui, services, owner, preselection.orElse(Preselection.none()));
        w.stage.show();
        return w;
    }

    /**
     * The wizard as another window feature opens it on a node (the passthrough wizard's "Create a VM…"), for the
     * shell to link in {@link io.gpuforge.ui.common.WindowLinks}.
     */
    public static WindowLinks.VmCreation creation(UiContext ui, VmCreateServices services) {
        return (owner, c, node, closed) -> open(ui, services, owner, Optional.of(Preselection.node(c, node)))
                .whenClosed(closed);
    }

    /**
     * Tells {@code closed}, when the wizard's window closes (after a create, a cancel or the close box), the VM it
     * created, if any.
     */
    public CreateVmWizard whenClosed(Consumer<Optional<VmRef>> closed) {
        stage.addEventHandler(WindowEvent.WINDOW_HIDDEN, e -> closed.accept(created));
        return this;
    }

    Stage stage() {
        return stage;
    }

    CreateVmWizardModel model() {
        return model;
    }

    private void buttons() {
        Button back = frame.back();
        back.setOnAction(e -> move(-1));
        // from the create page too: after a failed create the user goes back to change what it asked
        back.disableProperty().bind(Bindings.createBooleanBinding(() -> busy.get()
                || page.get() == CreateVmWizardModel.Step.TARGET, page, busy));
        // Next, and on the summary "Create VM"; the create page has its own buttons (start, console, setup)
        Button next = frame.next();
        next.setOnAction(e -> {
            if (page.get() == CreateVmWizardModel.Step.SUMMARY) {
                create();
            } else {
                move(1);
            }
        });
        next.textProperty().bind(Bindings.when(page.isEqualTo(CreateVmWizardModel.Step.SUMMARY))
                .then(ui.i18n().get("vmcreate.create")).otherwise(ui.i18n().get("wizard.next")));
        next.disableProperty().bind(Bindings.createBooleanBinding(() -> busy.get() || !model.pageValid(page.get()),
                page, busy, model.errors, model.template, model.choices, model.connection, model.node));
        next.visibleProperty().bind(page.isNotEqualTo(CreateVmWizardModel.Step.CREATE));
        next.managedProperty().bind(next.visibleProperty());
        // once the VM is being made, leaving the wizard closes it (a running create is cancelled)
        Button cancel = frame.cancel();
        cancel.textProperty().bind(Bindings.when(page.isEqualTo(CreateVmWizardModel.Step.CREATE))
                .then(ui.i18n().get("wizard.close")).otherwise(ui.i18n().get("wizard.cancel")));
        cancel.setOnAction(e -> stage.close());
    }

    private void move(int by) {
        int i = page.get().ordinal() + by;
        CreateVmWizardModel.Step[] all = CreateVmWizardModel.Step.values();
        if (i >= 0 && i < all.length) {
            page.set(all[i]);
        }
    }

    void show(CreateVmWizardModel.Step p) {
        page.set(p);
    }

    CreateVmWizardModel.Step current() {
        return page.get();
    }

    private void load(Preselection pre) {
        busy.set(true);
        ui.tasks().supply("vmcreate-load", () -> {
            List<ConnectionInfo> hv = services.connections().all().stream()
                    .filter(c -> services.sessions().isHypervisor(c.kind())).toList();
            return new Object[] {hv, services.templates().all()};
        }).onSuccess(r -> {
            @SuppressWarnings("unchecked")
            List<ConnectionInfo> hv = (List<ConnectionInfo>) r[0];
            @SuppressWarnings("unchecked")
            List<VmTemplate> all = (List<VmTemplate>) r[1];
            connections.setAll(hv);
            templates.setAll(all);
            pre.template().flatMap(id -> all.stream().filter(t -> t.id().equals(id)).findFirst()).ifPresent(model::apply);
            pendingNode = pre.node().orElse("");
            Optional<ConnectionInfo> c = pre.connection().flatMap(p -> hv.stream().filter(h -> h.id() == p.id())
                    .findFirst()).or(() -> hv.size() == 1 ? Optional.of(hv.get(0)) : Optional.empty());
            c.ifPresent(model.connection::set);
        }).onError(this::failed).andFinally(() -> busy.set(false)).start();
    }

    private String pendingNode = "";

    /** Reloads the template list (after the template manager closed), keeping the chosen one if it is still there. */
    void reloadTemplates() {
        ui.tasks().supply("vmcreate-templates", () -> services.templates().all()).onSuccess(all -> {
            VmTemplate chosen = model.template.get();
            templates.setAll(all);
            if (chosen != null) {
                all.stream().filter(t -> t.id().equals(chosen.id())).findFirst().ifPresentOrElse(model::apply,
                        () -> model.template.set(null));
            }
        }).onError(this::failed).start();
    }

    private void connectionChosen(ConnectionInfo c) {
        nodes.clear();
        model.choices.set(null);
        model.node.set("");
        if (c == null) {
            return;
        }
        busy.set(true);
        ui.tasks().supply("vmcreate-nodes", () -> services.sessions().of(c).inventory().nodes().stream()
                .filter(n -> n.state() == NodeState.ONLINE).map(n -> n.name()).toList()).onSuccess(names -> {
                    nodes.setAll(names);
                    String wanted = names.contains(pendingNode) ? pendingNode : names.size() == 1 ? names.get(0) : "";
                    pendingNode = "";
                    model.node.set(wanted);
                }).onError(this::failed).andFinally(() -> busy.set(false)).start();
    }

    private void loadChoices() {
        model.choices.set(null);
        if (model.cloneSource.get() != null) {
            model.cloneSource.set(null);
            model.template.set(null);
        }
        Optional<VmProvisioning.Target> t = model.target();
        if (t.isEmpty()) {
            return;
        }
        busy.set(true);
        ui.tasks().supply("vmcreate-choices", () -> services.provisioning().choices(t.get())).onSuccess(c -> {
            if (!t.equals(model.target())) {
                return;
            }
            if (c.diskStorages().stream().noneMatch(s -> s.name().equals(model.storage.get()))) {
                model.storage.set(c.diskStorages().isEmpty() ? "" : c.diskStorages().get(0).name());
            }
            if (c.networks().stream().noneMatch(n -> n.name().equals(model.network.get()))) {
                model.network.set(c.networks().isEmpty() ? "" : c.networks().get(0).name());
            }
            model.gpu.set(null);
            model.choices.set(c);
        }).onError(this::failed).andFinally(() -> busy.set(false)).start();
    }

    private void failed(Throwable e) {
        pages.loadFailed(e.getMessage() == null ? e.toString() : e.getMessage());
    }

    private void create() {
        VmProvisioning.Request request = model.request();
        page.set(CreateVmWizardModel.Step.CREATE);
        pages.createStarted();
        AtomicBoolean cancelled = newOperation();
        busy.set(true);
        BackgroundTasks.Cancellable handle = ui.tasks().supply(ui.i18n().get("vmcreate.task", request.name()),
                () -> services.provisioning().create(request, line -> Platform.runLater(() -> pages.log(line)),
                        cancelled::get, new FxHostKeyPrompt(ui.dialogs(), ui.i18n()))).onSuccess(r -> {
                            created = r.vm();
                            createdName = request.name();
                            pages.createFinished(r);
                            if (r.started()) {
                                r.snippet().ifPresent(this::removeSnippetAfterFirstBoot);
                            }
                        }).onError(e -> {
                            if (e instanceof SpecRefusedException) {
                                model.refused(((SpecRefusedException) e).fields());
                                pages.createRefused(e.getMessage());
                                model.firstPageWithError().ifPresent(page::set);
                            } else {
                                pages.createFailed(e.getMessage() == null ? e.toString() : e.getMessage());
                            }
                        }).andFinally(() -> busy.set(false)).start();
        pages.onCancel(() -> {
            cancel.set(true);
            pages.log(ui.i18n().get("vmcreate.progress.cancelling"));
        });
        stage.setUserData(handle);
    }

    /** A fresh cancel flag for the operation that starts now. */
    private AtomicBoolean newOperation() {
        AtomicBoolean flag = new AtomicBoolean();
        cancel = flag;
        return flag;
    }

    /**
     * Removes the template's user-data snippet (it holds the secrets) once the VM's first boot reported done: a task
     * of its own in the background, which closing the wizard does not stop (quitting GPUForge does; the snippet then
     * stays and the task log says how to remove it).
     */
    private void removeSnippetAfterFirstBoot(SnippetCleanup.Pending p) {
        ui.tasks().supply(ui.i18n().get("vmcreate.task.snippet", p.vm().id()), () -> services.provisioning().snippets()
                .afterFirstBoot(p, line -> { }, () -> false, new FxHostKeyPrompt(ui.dialogs(), ui.i18n()))).start();
    }

    /**
     * Runs the template's setup in the created VM over its guest agent (started first when it is stopped): for a VM
     * whose user-data could not go to the node as a snippet.
     */
    void provision() {
        Optional<VmRef> vm = created;
        if (vm.isEmpty()) {
            return;
        }
        VmProvisioning.Request request = model.request();
        pages.setupStarted(vm.get().id());
        AtomicBoolean cancelled = newOperation();
        busy.set(true);
        ui.tasks().supply(ui.i18n().get("vmcreate.task.provision", request.name()), () -> services.provisioning()
                .provision(request, vm.get(), line -> Platform.runLater(() -> pages.log(line)), cancelled::get))
                .onSuccess(pages::setupFinished)
                .onError(e -> pages.setupFailed(e.getMessage() == null ? e.toString() : e.getMessage()))
                .andFinally(() -> busy.set(false)).start();
    }

    /** Opens the created VM's console: Proxmox VE's noVNC in the browser, or virt-viewer for libvirt. */
    void openConsole() {
        Optional<VmRef> vm = created;
        Optional<VmProvisioning.Target> t = model.target();
        if (vm.isEmpty() || t.isEmpty()) {
            return;
        }
        String name = createdName;
        ui.tasks().supply("vmcreate-console", () -> {
            services.consoles().open(t.get().connection(), vm.get(), name);
            return true;
        }).onError(e -> ui.dialogs().showError("vmcreate.console.failed", e.getMessage(), e)).start();
    }

    Optional<VmRef> created() {
        return created;
    }
}
