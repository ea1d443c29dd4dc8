package io.gpuforge.ui.share;

import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.passthrough.ApplyProgressLines;
import io.gpuforge.app.passthrough.PassthroughService;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.app.share.ShareService;
import io.gpuforge.domain.NodeState;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.passthrough.Verdict;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.share.ContainerSpec;
import io.gpuforge.domain.share.ShareReadiness;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.ui.common.FxHostKeyPrompt;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.UiContext;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * What the container wizard knows and does: the node, its templates, storages and bridges, the new container's
 * values, each GPU of the node's host with whether it can be shared, the host plan when the chosen GPU needs one, and
 * the create with its task's lines. Every read and change runs in the background; {@code busy} and {@code error}
 * say how it went. FX thread.
 */
final class ContainerWizardModel {

    enum Step { NODE, TEMPLATE, RESOURCES, GPU, HOST_PLAN, DRIVER, SUMMARY, CREATE }

    final UiContext ui;

    private final ShareServices services;
    final I18n i18n;
    final ConnectionInfo connection;
    final ObservableList<String> nodes = FXCollections.observableArrayList();
    final ObjectProperty<String> node = new SimpleObjectProperty<>();
    final ObservableList<String> templates = FXCollections.observableArrayList();
    final ObjectProperty<String> template = new SimpleObjectProperty<>();
    final StringProperty hostname = new SimpleStringProperty("");
    final IntegerProperty vmid = new SimpleIntegerProperty(100);
    final IntegerProperty cores = new SimpleIntegerProperty(2);
    final IntegerProperty memoryMiB = new SimpleIntegerProperty(2048);
    final IntegerProperty diskGiB = new SimpleIntegerProperty(8);
    final ObservableList<String> storages = FXCollections.observableArrayList();
    final ObjectProperty<String> storage = new SimpleObjectProperty<>();
    final ObservableList<String> bridges = FXCollections.observableArrayList();
    final ObjectProperty<String> bridge = new SimpleObjectProperty<>();
    final BooleanProperty start = new SimpleBooleanProperty(true);
    final ObservableList<ShareReadiness> gpus = FXCollections.observableArrayList();
    /** The GPUs' names as the host lists them. */
    ShareService.HostGpus names = new ShareService.HostGpus(List.of(), java.util.Map.of());
    /** The GPU to share; null: none. */
    final ObjectProperty<ShareReadiness> gpu = new SimpleObjectProperty<>();
    final ObjectProperty<PassthroughPlan> hostPlan = new SimpleObjectProperty<>();
    final ObjectProperty<PassthroughService.Applied> hostApplied = new SimpleObjectProperty<>();
    final ObjectProperty<Step> step = new SimpleObjectProperty<>(Step.NODE);
    final ObjectProperty<TaskOutcome> created = new SimpleObjectProperty<>();
    final ObservableList<String> output = FXCollections.observableArrayList();
    final BooleanProperty busy = new SimpleBooleanProperty();
    final StringProperty error = new SimpleStringProperty("");
    final AtomicBoolean cancelled = new AtomicBoolean();
    /** The GPU to start with (the wizard opened from a GPU). */
    Optional<PciAddress> preselectedGpu = Optional.empty();

    ContainerWizardModel(UiContext ui, ShareServices services, ConnectionInfo connection) {
        this.ui = ui;
        this.services = services;
        this.i18n = ui.i18n();
        this.connection = connection;
    }

    ConnectionSession session() {
        return services.sessions().of(connection);
    }

    ShareService shares() {
        return services.shares();
    }

    HostTarget host() {
        return new HostTarget.Linked(connection, node.get());
    }

    FxHostKeyPrompt prompt() {
        return new FxHostKeyPrompt(ui.dialogs(), i18n);
    }

    /** Runs {@code work} in the background; {@code then} gets its result on the FX thread. */
    <T> void run(String taskKey, Callable<T> work, Consumer<T> then) {
        busy.set(true);
        error.set("");
        ui.tasks().supply(i18n.get(taskKey), work).onSuccess(then::accept)
                .onError(t -> error.set(t.getMessage() == null ? t.toString() : t.getMessage()))
                .andFinally(() -> busy.set(false)).start();
    }

    void loadNodes(Runnable then) {
        run("share.task.nodes", () -> session().inventory().nodes().stream().filter(n -> n.state() == NodeState.ONLINE)
                .map(n -> n.name()).toList(), list -> {
                    nodes.setAll(list);
                    if (node.get() == null || !list.contains(node.get())) {
                        node.set(list.isEmpty() ? null : list.get(0));
                    }
                    then.run();
                });
    }

    /** The node's templates, disk storages, bridges and the next free id. */
    record NodeChoices(List<String> templates, List<String> storages, List<String> bridges, int freeId) {
    }

    void loadNodeChoices(Runnable then) {
        String n = node.get();
        run("share.task.nodeChoices", () -> new NodeChoices(services.containers().templates(session(), n),
                services.containers().diskStorages(session(), n), services.containers().bridges(session(), n), services.containers().freeId(session())), c -> {
                    templates.setAll(c.templates());
                    keep(template, c.templates());
                    storages.setAll(c.storages());
                    keep(storage, c.storages());
                    bridges.setAll(c.bridges());
                    keep(bridge, c.bridges());
                    vmid.set(c.freeId());
                    then.run();
                });
    }

    private static void keep(ObjectProperty<String> p, List<String> choices) {
        if (p.get() == null || !choices.contains(p.get())) {
            p.set(choices.isEmpty() ? null : choices.get(0));
        }
    }

    void loadGpus(Runnable then) {
        run("share.task.gpus", () -> shares().readinessOfAll(host(), prompt()), all -> {
            List<ShareReadiness> list = all.gpus();
            names = all;
            gpus.setAll(list);
            ShareReadiness was = gpu.get();
            gpu.set(list.stream().filter(r -> was != null ? r.gpu().equals(was.gpu())
                    : preselectedGpu.map(r.gpu()::equals).orElse(false)).findFirst().orElse(null));
            then.run();
        });
    }

    boolean needsHostPlan() {
        return gpu.get() != null && gpu.get().verdict().kind() == Verdict.Kind.NEEDS_HOST_SETUP;
    }

    boolean gpuBlocked() {
        return gpu.get() != null && gpu.get().verdict().kind() == Verdict.Kind.BLOCKED;
    }

    void loadHostPlan(Runnable then) {
        PciAddress a = gpu.get().gpu();
        run("share.task.plan", () -> shares().hostPlan(host(), a, prompt()), p -> {
            hostPlan.set(p);
            then.run();
        });
    }

    /** Applies the host plan shown (refused when the host changed since), then reads the GPU's readiness again. */
    void applyHostPlan(Runnable then) {
        PassthroughPlan shownPlan = hostPlan.get();
        PciAddress a = gpu.get().gpu();
        output.clear();
        ApplyProgressLines progress = new ApplyProgressLines(l -> Platform.runLater(() -> output.add(l)),
                ApplyProgressLines.Style.SYMBOLS);
        run("share.task.apply", () -> {
            Optional<PassthroughService.Applied> applied = shares().applyHostPlan(host(), a,
                    PlanWindow.sameAs(shownPlan), progress, prompt());
            if (applied.isEmpty()) {
                throw new IllegalStateException(i18n.get("share.plan.changed"));
            }
            return applied.get();
        }, applied -> {
            hostApplied.set(applied);
            loadGpus(then);
        });
    }

    ContainerSpec spec() {
        return new ContainerSpec(vmid.get(), hostname.get().strip(), template.get(), cores.get(), memoryMiB.get(),
                storage.get(), diskGiB.get(), bridge.get(), List.of(), Optional.empty(), start.get());
    }

    /** Why the values cannot make a container yet (empty: they can). */
    Optional<String> invalid() {
        if (template.get() == null) {
            return Optional.of(i18n.get("share.wizard.noTemplate"));
        }
        if (storage.get() == null) {
            return Optional.of(i18n.get("share.wizard.noStorage"));
        }
        if (bridge.get() == null) {
            return Optional.of(i18n.get("share.wizard.noBridge"));
        }
        try {
            spec();
            return Optional.empty();
        } catch (IllegalArgumentException | NullPointerException e) {
            return Optional.of(i18n.get("share.wizard.badName", hostname.get()));
        }
    }

    List<String> calls() {
        return services.containers().createCalls(node.get(), spec(), Optional.ofNullable(gpu.get()));
    }

    /** Creates the container; its task's lines go to {@code output}; {@code then} runs when it ended well. */
    void create(Runnable then) {
        ContainerSpec spec = spec();
        String n = node.get();
        Optional<ShareReadiness> g = Optional.ofNullable(gpu.get());
        output.clear();
        run("share.task.create", () -> services.containers().create(session(), n, spec, g,
                line -> Platform.runLater(() -> output.add(line)), cancelled::get), out -> {
                    created.set(out);
                    if (!out.ok()) {
                        error.set(i18n.get("share.wizard.createFailed", out.status()));
                    }
                    then.run();
                });
    }
}
