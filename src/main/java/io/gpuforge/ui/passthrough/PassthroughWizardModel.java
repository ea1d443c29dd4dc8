package io.gpuforge.ui.passthrough;

import io.gpuforge.app.connections.ConnectionsService;
import io.gpuforge.app.host.HostService;
import io.gpuforge.app.passthrough.PassthroughChain;
import io.gpuforge.app.passthrough.PassthroughProposal;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.app.session.Sessions;
import io.gpuforge.app.host.HostKeyPrompt;
import io.gpuforge.app.host.HostReading;
import io.gpuforge.app.host.HostReboot;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.passthrough.PassthroughService;
import io.gpuforge.app.passthrough.PassthroughStatus;
import io.gpuforge.app.passthrough.ApplyProgressLines;
import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.passthrough.Check;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.vm.GpuAttachResult;
import io.gpuforge.domain.passthrough.GpuVerdict;
import io.gpuforge.domain.vm.GuestExecResult;
import io.gpuforge.domain.passthrough.PassthroughOverrides;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.domain.passthrough.ReadinessReport;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.ui.common.FxHostKeyPrompt;
import io.gpuforge.ui.common.UiContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The passthrough wizard's typed state, on the FX thread: the host, the GPU, what the host says about it (readiness,
 * status, plan), the apply's output, the reboot, the verify, the VM and what the attach changed. Every piece of work
 * runs through the app services on a background task; its outcome comes back here.
 */
final class PassthroughWizardModel {

    /** The wizard's steps, in order. */
    enum Step { HOST, GPU, READINESS, PLAN, APPLY, REBOOT, VERIFY, ATTACH, DONE }

    final UiContext ui;
    final HostKeyPrompt prompt;
    final ObjectProperty<Step> step = new SimpleObjectProperty<>(Step.HOST);
    final ObservableList<Preselection> hosts = FXCollections.observableArrayList();
    final ObjectProperty<Preselection> host = new SimpleObjectProperty<>();
    final ObjectProperty<HostReading> reading = new SimpleObjectProperty<>();
    final ObservableList<GpuVerdict> gpus = FXCollections.observableArrayList();
    final ObjectProperty<PciAddress> gpu = new SimpleObjectProperty<>();
    final BooleanProperty allowSharedGroup = new SimpleBooleanProperty();
    final BooleanProperty allowHostCritical = new SimpleBooleanProperty();
    final BooleanProperty warningsAcknowledged = new SimpleBooleanProperty();
    final ObjectProperty<ReadinessReport> report = new SimpleObjectProperty<>();
    final ObjectProperty<PassthroughStatus> status = new SimpleObjectProperty<>();
    final ObjectProperty<PassthroughService.Applied> applied = new SimpleObjectProperty<>();
    final ObservableList<String> output = FXCollections.observableArrayList();
    final ObjectProperty<HostReboot.Result> rebooted = new SimpleObjectProperty<>();
    final ObjectProperty<PassthroughService.VerifyReport> verified = new SimpleObjectProperty<>();
    final ObservableList<VmInfo> vms = FXCollections.observableArrayList();
    final ObjectProperty<VmInfo> vm = new SimpleObjectProperty<>();
    final ObjectProperty<GpuAttachResult> attached = new SimpleObjectProperty<>();
    final StringProperty guest = new SimpleStringProperty("");
    /** The VM did not start, or its guest does not see the GPU: the Done page diagnoses it. */
    final BooleanProperty troubled = new SimpleBooleanProperty();
    final BooleanProperty busy = new SimpleBooleanProperty();
    final StringProperty error = new SimpleStringProperty("");
    final AtomicBoolean cancelled = new AtomicBoolean();
    /** The Reboot page's one status line ("Down for 12 s, waiting…"), updated at every poll. */
    final StringProperty rebootStatus = new SimpleStringProperty("");
    private final OutputBuffer buffer = new OutputBuffer(output::addAll, rebootStatus::set);
    /** The Attach step: the VM chosen checked, and attached as shown. */
    final WizardAttach attaching = new WizardAttach(this);

    /** The services the wizard works through, taken once: nothing else of the application is reached. */
    private final PassthroughService passthrough;
    private final HostService hostService;
    private final Sessions sessions;
    private final ConnectionsService connections;

    PassthroughWizardModel(UiContext ui, PassthroughServices services) {
        this.ui = ui;
        this.prompt = new FxHostKeyPrompt(ui.dialogs(), ui.i18n());
        this.passthrough = services.passthrough();
        this.hostService = services.hosts();
        this.sessions = services.sessions();
        this.connections = services.connections();
    }

    /** Every check of the whole passthrough to the VM chosen, before anything changes (the one-click run). */
    PassthroughProposal propose(PassthroughChain.Request request) throws PassthroughChain.Stopped {
        return new PassthroughChain(passthrough, hostService, sessions).propose(request, prompt);
    }

    PlanOptions options() {
        return new PlanOptions(new PassthroughOverrides(allowSharedGroup.get(), allowHostCritical.get()), false,
                Optional.ofNullable(vm.get()).map(v -> v.ref().id()));
    }

    HostTarget target() {
        return host.get().host();
    }

    Optional<ConnectionSession> session() {
        return host.get() == null ? Optional.empty() : host.get().connection().map(sessions::of);
    }

    /** The hosts to choose from: every node of the hypervisor connections, the saved SSH hosts, this computer. */
    void loadHosts(Runnable then) {
        run("passthrough.task.hosts", () -> {
            List<Preselection> out = new ArrayList<>();
            for (ConnectionInfo c : connections.all()) {
                if (sessions.isHypervisor(c.kind())) {
                    ClusterInventory inv = sessions.of(c).inventory();
                    inv.nodes().forEach(n -> out.add(Preselection.node(c, n.name(), Optional.empty())));
                } else if (c.kind() == ConnectionInfo.Kind.SSH) {
                    out.add(Preselection.host(new HostTarget.Saved(c), Optional.empty()));
                }
            }
            out.add(Preselection.host(new HostTarget.ThisComputer(), Optional.empty()));
            return out;
        }, list -> {
            hosts.setAll(list);
            then.run();
        });
    }

    /** Reads the chosen host: its GPUs and their verdicts. */
    void readHost(Runnable then) {
        HostTarget t = target();
        run("passthrough.task.read", () -> {
            HostReading r = hostService.read(t, prompt);
            return new Object[] {r, passthrough.verdicts(r, PassthroughOverrides.none())};
        }, res -> {
            reading.set((HostReading) res[0]);
            @SuppressWarnings("unchecked")
            List<GpuVerdict> v = (List<GpuVerdict>) res[1];
            gpus.setAll(v);
            if (gpu.get() == null || v.stream().noneMatch(g -> g.address().equals(gpu.get()))) {
                gpu.set(v.isEmpty() ? null : v.get(0).address());
            }
            then.run();
        });
    }

    /** The readiness of the chosen GPU (with the overrides named) and where the host stands with it. */
    void check(Runnable then) {
        HostTarget t = target();
        PciAddress d = gpu.get();
        PlanOptions o = options();
        run("passthrough.task.check", () -> {
            HostReading r = passthrough.settled(t, prompt);
            return new Object[] {r, passthrough.check(r, Optional.of(d), o.overrides()),
                passthrough.status(r, d, o)};
        }, res -> {
            reading.set((HostReading) res[0]);
            report.set((ReadinessReport) res[1]);
            status.set((PassthroughStatus) res[2]);
            then.run();
        });
    }

    boolean blocked() {
        return report.get() != null && report.get().checks().stream().anyMatch(c -> c.status() == Check.Status.FAIL);
    }

    /** Whether the checks warn about something the plan does not fix: that needs the user's acknowledgement. */
    boolean hasWarnings() {
        PassthroughStatus s = status.get();
        // the check sets the report and the status together
        return s != null && report.get() != null && report.get().checks().stream().anyMatch(s::needsAcknowledgement);
    }

    Optional<PassthroughPlan> plan() {
        return status.get() == null ? Optional.empty() : status.get().plan();
    }

    /** Applies exactly the plan shown: if the host changed meanwhile and the plan differs, nothing is applied. */
    void apply(Runnable then) {
        HostTarget t = target();
        PciAddress d = gpu.get();
        PlanOptions o = options();
        PassthroughPlan shown = plan().orElseThrow();
        output.clear();
        buffer.start();
        ApplyProgress progress = new ApplyProgressLines(buffer::add, ApplyProgressLines.Style.SYMBOLS);
        run("passthrough.task.apply", () -> passthrough.apply(t, d, o,
                p -> p.changesAs(shown), progress, prompt)
                .orElseThrow(() -> new IllegalStateException(ui.i18n().get("passthrough.apply.changed"))),
                a -> {
                    buffer.stop();
                    applied.set(a);
                    then.run();
                }, buffer::stop);
    }

    /** Whether GPUForge can reboot this host (empty), or why not. */
    Optional<String> cannotReboot() {
        return passthrough.reboots(sessions).cannotReboot(target());
    }

    /** Reboots the host and waits until it answers with a new boot id. */
    void reboot(Runnable then) {
        HostTarget t = target();
        cancelled.set(false);
        output.clear();
        buffer.start();
        HostReboot r = passthrough.reboots(sessions);
        rebootStatus.set("");
        RebootLines lines = new RebootLines(ui.i18n());
        run("passthrough.task.reboot", () -> r.reboot(t, (phase, waited, detail) -> {
            RebootLines.Update u = lines.on(phase, waited, detail);
            buffer.status(u.status());
            u.logLine().ifPresent(buffer::add);
        }, cancelled::get, prompt), res -> {
                    buffer.stop();
                    rebooted.set(res);
                    then.run();
                }, buffer::stop);
    }

    void verify(Runnable then) {
        HostTarget t = target();
        run("passthrough.task.verify", () -> passthrough.verify(t, prompt), v -> {
            verified.set(v);
            then.run();
        });
    }

    /** The VMs of the node the GPU is on (templates left out). */
    void loadVms(Runnable then) {
        Optional<ConnectionSession> s = session();
        String node = host.get().node().orElse("");
        if (s.isEmpty()) {
            vms.clear();
            then.run();
            return;
        }
        run("passthrough.task.vms", () -> s.get().inventory().vmsOn(node).stream().filter(v -> !v.template()).toList(),
                list -> {
                    vms.setAll(list);
                    if (vm.get() == null && !list.isEmpty()) {
                        vm.set(list.get(0));
                    }
                    then.run();
                });
    }

    /** Starts the VM and, where its guest agent answers, asks it what it sees ({@code lspci}, {@code nvidia-smi}). */
    void startVm(Runnable then) {
        ConnectionSession s = session().orElseThrow();
        VmInfo v = vm.get();
        run("passthrough.task.start", () -> {
            io.gpuforge.domain.tasks.TaskOutcome started = s.vmAction(v.ref(), VmAction.START, line -> { },
                    cancelled::get);
            if (!started.ok()) {
                troubledNow();
                return ui.i18n().get("passthrough.done.startFailed", started.status());
            }
            StringBuilder out = new StringBuilder();
            for (List<String> cmd : List.of(List.of("nvidia-smi", "-L"), List.of("lspci", "-nn"))) {
                out.append("$ ").append(String.join(" ", cmd)).append('\n');
                try {
                    GuestExecResult r = s.guestExec(v.ref(), cmd, Duration.ofSeconds(20));
                    out.append(r.stdout()).append(r.stderr()).append('\n');
                    if (cmd.get(0).equals("nvidia-smi") && !r.stdout().contains("GPU ")) {
                        troubledNow(); // the guest does not see the card
                    }
                } catch (BackendException e) {
                    boolean agent = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("agent");
                    out.append(ui.i18n().get(agent ? "passthrough.done.noAgent" : "passthrough.done.cmdFailed",
                            e.getMessage())).append('\n');
                }
            }
            return out.toString();
        }, text -> {
            guest.set(text);
            then.run();
        });
    }

    private void troubledNow() {
        javafx.application.Platform.runLater(() -> troubled.set(true));
    }

    <T> void run(String key, Callable<T> work, Consumer<T> ok) {
        run(key, work, ok, () -> { });
    }

    private <T> void run(String key, Callable<T> work, Consumer<T> ok, Runnable failed) {
        busy.set(true);
        error.set("");
        // not busy before the handlers run, so they can start the next piece of work (one click goes on by itself)
        ui.tasks().supply(ui.i18n().get(key), work).onSuccess(v -> {
            busy.set(false);
            ok.accept(v);
        }).onError(e -> {
            busy.set(false);
            failed.run();
            error.set(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }).start();
    }

    String describe(Preselection p) {
        if (p.node().isPresent()) {
            return p.node().get() + " (" + p.connection().map(ConnectionInfo::name).orElse("") + ")";
        }
        return p.host() instanceof HostTarget.ThisComputer ? ui.i18n().get("passthrough.host.thisComputer")
                : p.host().describe();
    }

    /** Whether the current step has what the next one needs (the wizard's Next button, when not busy). */
    boolean canGoOn() {
        switch (step.get()) {
            case HOST:
                return host.get() != null;
            case GPU:
                return gpu.get() != null;
            case READINESS:
                return report.get() != null && status.get() != null && !blocked()
                        && status.get().stage() != PassthroughStatus.Stage.INTERRUPTED
                        && (!hasWarnings() || warningsAcknowledged.get());
            case PLAN:
                return plan().isPresent();
            case APPLY:
                return applied.get() != null;
            case REBOOT:
                return rebooted.get() != null;
            case VERIFY:
                return verified.get() != null && verified.get().ok();
            case ATTACH:
                return host.get().connection().isPresent() && attaching.ready();
            default:
                return true;
        }
    }
}
