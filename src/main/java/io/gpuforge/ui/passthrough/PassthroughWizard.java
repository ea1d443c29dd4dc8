package io.gpuforge.ui.passthrough;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.app.passthrough.PassthroughChain;
import io.gpuforge.app.passthrough.PassthroughSteps;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.UiContext;
import io.gpuforge.ui.common.WizardFrame;
import io.gpuforge.ui.common.WindowLinks;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.StackPane;
import javafx.stage.Modality;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The passthrough wizard: Host → GPU → Readiness → Plan → Apply → Reboot → Verify → Attach → Done, one window with
 * the steps on the left. Steps the host's state makes needless are skipped (everything in place: straight to Attach;
 * configured but not rebooted: to the reboot) and shown as skipped. Nothing is changed before the plan was shown;
 * Back stops at the plan. Open it with {@link #open}.
 */
public final class PassthroughWizard {

    private final UiContext ui;
    private final I18n i18n;
    private final PassthroughWizardModel m;
    private final PassthroughWizardPages pages;
    private final Stage stage = new Stage();
    private final WizardFrame frame;
    private final StackPane content;
    private final Button next;
    private final Set<PassthroughWizardModel.Step> skipped = EnumSet.noneOf(PassthroughWizardModel.Step.class);
    /** One click: after the one confirmation, each step goes on to the next by itself until the attach. */
    private boolean auto;

    private PassthroughWizard(UiContext ui, PassthroughServices services, Window owner) {
        this.ui = ui;
        this.i18n = ui.i18n();
        this.m = new PassthroughWizardModel(ui, services);
        this.pages = new PassthroughWizardPages(m);
        this.frame = new WizardFrame("pt", "passthrough", i18n, m.busy, m.error, demoBanner());
        this.content = frame.content();
        this.next = frame.next();
        if (owner != null) {
            stage.initOwner(owner);
            stage.initModality(Modality.NONE);
        }
        stage.setTitle(i18n.get("passthrough.title"));
        stage.setScene(scene());
        stage.setOnHidden(e -> m.cancelled.set(true));
    }

    /**
     * Opens the wizard. With a preselection of a host it starts at the host's GPUs; with a GPU too ("Pass through to
     * VM…" on a GPU) at that GPU's readiness; without one at the choice of a host.
     *
     * @return the wizard's window (already shown)
     */
    public static Stage open(UiContext ui, PassthroughServices services, Window owner,
                             Optional<Preselection> preselection) {
        PassthroughWizard w = new PassthroughWizard(ui, services, owner);
        w.stage.show();
        w.start(preselection);
        return w.stage;
    }

    private void start(Optional<Preselection> pre) {
        if (pre.isEmpty()) {
            m.loadHosts(() -> show(PassthroughWizardModel.Step.HOST));
            show(PassthroughWizardModel.Step.HOST);
            return;
        }
        m.host.set(pre.get());
        m.hosts.setAll(pre.get());
        pre.get().gpu().ifPresent(m.gpu::set);
        if (pre.get().gpu().isPresent()) {
            m.readHost(() -> m.check(() -> m.loadVms(() -> show(PassthroughWizardModel.Step.READINESS))));
        } else {
            m.readHost(() -> show(PassthroughWizardModel.Step.GPU));
        }
        show(PassthroughWizardModel.Step.HOST);
    }

    /** "Demo lab: nothing is changed on a real host", while the chosen host is the Demo lab's. */
    private Label demoBanner() {
        Label demo = new Label(i18n.get("passthrough.demo"));
        demo.setId("pt-demo");
        demo.getStyleClass().add("wizard-banner");
        PassthroughWizardPages.wrapped(demo);
        demo.setMaxWidth(Double.MAX_VALUE);
        demo.visibleProperty().bind(Bindings.createBooleanBinding(() -> m.host.get() != null && m.host.get().connection()
                .map(ConnectionInfo::kind).orElse(null) == ConnectionInfo.Kind.DEMO, m.host));
        demo.managedProperty().bind(demo.visibleProperty());
        return demo;
    }

    private Scene scene() {
        Button back = frame.back();
        back.setOnAction(e -> back());
        next.setOnAction(e -> next());
        next.disableProperty().bind(cannotGoOn());
        back.disableProperty().bind(m.busy.or(Bindings.createBooleanBinding(() -> !EnumSet.of(PassthroughWizardModel.Step.GPU,
                PassthroughWizardModel.Step.READINESS, PassthroughWizardModel.Step.PLAN).contains(m.step.get()), m.step)));
        frame.cancel().setOnAction(e -> cancel());
        BorderPane root = frame.root();
        root.setId("passthrough-wizard");
        m.allowSharedGroup.addListener((o, a, b) -> recheck());
        m.allowHostCritical.addListener((o, a, b) -> recheck());
        Scene scene = new Scene(root, 1060, 720);
        ui.theme().style(scene);
        return scene;
    }

    private BooleanBinding cannotGoOn() {
        return Bindings.createBooleanBinding(() -> m.busy.get() || !m.canGoOn(), m.busy, m.step, m.host, m.gpu,
                m.report, m.status, m.warningsAcknowledged, m.applied, m.rebooted, m.verified, m.vm, m.attached,
                m.attaching.checked, m.attaching.addGpu);
    }

    private void next() {
        switch (m.step.get()) {
            case HOST:
                m.readHost(() -> show(PassthroughWizardModel.Step.GPU));
                break;
            case GPU:
                m.warningsAcknowledged.set(false);
                m.check(() -> show(PassthroughWizardModel.Step.READINESS));
                break;
            case READINESS:
                afterReadiness();
                break;
            case PLAN:
                show(PassthroughWizardModel.Step.APPLY);
                m.apply(this::stepDone);
                break;
            case APPLY:
                go(PassthroughSteps.State.APPLY, PassthroughSteps.applied(true, m.applied.get().rebootNeeded()));
                break;
            case REBOOT:
                go(PassthroughSteps.State.REBOOT, PassthroughSteps.Event.REBOOTED);
                break;
            case VERIFY:
                go(PassthroughSteps.State.VERIFY, m.verified.get().ok() ? PassthroughSteps.Event.VERIFIED
                        : PassthroughSteps.Event.NOT_AS_INTENDED);
                break;
            case ATTACH:
                m.attaching.attach(() -> go(PassthroughSteps.State.ATTACH, PassthroughSteps.Event.ATTACHED));
                break;
            default:
                stage.close();
        }
    }

    /** Where the host's state says the work goes on, as {@link PassthroughSteps} has it for the CLI too. */
    private void afterReadiness() {
        go(PassthroughSteps.State.CHECK, PassthroughSteps.checked(m.status.get()));
    }

    /** The page of the step after {@code outcome} of {@code from}; pages passed by are not needed; stopped: stay. */
    private void go(PassthroughSteps.State from, PassthroughSteps.Event outcome) {
        PassthroughSteps.State to = PassthroughSteps.next(from, outcome);
        switch (to) {
            case APPLY:
                // the user reviews the plan before it is applied
                show(PassthroughWizardModel.Step.PLAN);
                break;
            case REBOOT:
                if (from == PassthroughSteps.State.CHECK) {
                    skip(PassthroughWizardModel.Step.PLAN, PassthroughWizardModel.Step.APPLY);
                }
                show(PassthroughWizardModel.Step.REBOOT);
                break;
            case VERIFY:
                show(PassthroughWizardModel.Step.VERIFY);
                m.verify(this::stepDone);
                break;
            case ATTACH:
                if (from == PassthroughSteps.State.CHECK) {
                    skip(PassthroughWizardModel.Step.PLAN, PassthroughWizardModel.Step.APPLY, PassthroughWizardModel.Step.REBOOT, PassthroughWizardModel.Step.VERIFY);
                } else if (from == PassthroughSteps.State.APPLY) {
                    skip(PassthroughWizardModel.Step.REBOOT, PassthroughWizardModel.Step.VERIFY);
                }
                toAttach();
                break;
            case DONE:
                show(PassthroughWizardModel.Step.DONE);
                break;
            default:
                refreshButtons();
        }
    }

    private void toAttach() {
        show(PassthroughWizardModel.Step.ATTACH);
        m.loadVms(() -> {
            show(PassthroughWizardModel.Step.ATTACH);
            if (auto && m.attaching.checked.get() != null) {
                stepDone(); // one click: the VM's lines were confirmed with the plan; the attach compares them
            } else {
                m.attaching.check(this::stepDone);
            }
        });
    }

    /** A step's work ended well: the buttons follow; in one-click mode the wizard goes on by itself. */
    private void stepDone() {
        refreshButtons();
        if (auto && !m.busy.get() && m.canGoOn()) {
            next();
        }
    }

    /** "Pass through to this VM": one confirmation, then Apply → Reboot → Verify → Attach without stopping. */
    private void runAll() {
        PassthroughChain.Request request = new PassthroughChain.Request(m.target(), m.session().orElseThrow(),
                m.vm.get().ref(), m.gpu.get(), m.options(), false);
        // every check that could stop the run later runs first: nothing is changed for a run that would stop
        m.run("passthrough.task.preflight", () -> m.propose(request), p -> {
            int files = p.hostPlan().map(h -> h.edits().size()).orElse(0);
            String message = i18n.get("passthrough.oneClick.confirm", m.gpu.get(), m.describe(m.host.get()), files,
                    p.vm().id() + " (" + p.vmName() + ")") + "\n\n" + i18n.get("passthrough.oneClick.plan",
                    String.join("\n", p.vmChanges()), p.digest());
            if (ui.dialogs().confirm("passthrough.title", message)) {
                m.attaching.confirmed(p);
                auto = true;
                afterReadiness();
            }
        });
    }

    private void back() {
        switch (m.step.get()) {
            case GPU:
                if (m.hosts.size() <= 1) {
                    m.loadHosts(() -> show(PassthroughWizardModel.Step.HOST));
                }
                show(PassthroughWizardModel.Step.HOST);
                break;
            case READINESS:
                show(PassthroughWizardModel.Step.GPU);
                break;
            default:
                show(PassthroughWizardModel.Step.READINESS);
        }
    }

    private void recheck() {
        if (m.step.get() == PassthroughWizardModel.Step.READINESS && !m.busy.get()) {
            m.check(() -> show(PassthroughWizardModel.Step.READINESS));
        }
    }

    private void cancel() {
        if (m.step.get() == PassthroughWizardModel.Step.APPLY && m.busy.get()) {
            // the apply is journaled and its commands must not be cut off half-way: it ends on its own
            ui.dialogs().showInfo("passthrough.title", i18n.get("passthrough.cancel.applying"));
        }
        m.cancelled.set(true);
        stage.close();
    }

    private void skip(PassthroughWizardModel.Step... s) {
        skipped.addAll(Set.of(s));
    }

    private void show(PassthroughWizardModel.Step s) {
        m.step.set(s);
        content.getChildren().setAll(page(s));
        frame.show(s, skipped);
        refreshButtons();
        if (auto) {
            goOnByItself(s);
        }
    }

    private void goOnByItself(PassthroughWizardModel.Step s) {
        if (s == PassthroughWizardModel.Step.PLAN) {
            next();
        } else if (s == PassthroughWizardModel.Step.REBOOT && m.rebooted.get() == null && !m.busy.get()) {
            if (m.cannotReboot().isPresent()) {
                auto = false;
            } else {
                m.reboot(this::stepDone);
            }
        } else if (s == PassthroughWizardModel.Step.DONE) {
            auto = false;
        }
    }

    private Node page(PassthroughWizardModel.Step s) {
        switch (s) {
            case HOST:
                return pages.host();
            case GPU:
                return pages.gpu();
            case READINESS:
                return m.report.get() == null ? new Label() : pages.readiness(this::runAll, () -> m.check(() -> show(PassthroughWizardModel.Step.READINESS)));
            case PLAN:
                return pages.plan();
            case APPLY:
                return pages.apply();
            case REBOOT:
                return pages.reboot(() -> m.reboot(this::stepDone), this::defer);
            case VERIFY:
                return pages.verify();
            case ATTACH:
                return pages.attach(ui.links().vmCreation().filter(v -> m.host.get().connection().isPresent()
                        && m.host.get().node().isPresent()).map(v -> (Runnable) () -> createVm(v)));
            default:
                return pages.done(() -> m.startVm(() -> {
                    if (m.troubled.get()) {
                        whyFailed(); // the start failed or the guest does not see the GPU: diagnose it at once
                    }
                }), this::whyFailed);
        }
    }

    /** The VM's diagnosis window: why it did not start, or why its guest does not see the GPU. */
    private void whyFailed() {
        m.host.get().connection().ifPresent(c -> ui.links().vmDiagnosis().ifPresent(d -> d.open(stage, c,
                m.vm.get().ref())));
    }

    /** Opens the VM wizard on the GPU's node; a VM created there gets the GPU (on to Done), else nothing changes. */
    private void createVm(WindowLinks.VmCreation creation) {
        creation.open(stage, m.host.get().connection().orElseThrow(), m.host.get().node().orElseThrow(),
                created -> created.ifPresent(ref -> m.loadVms(() -> m.vms.stream().filter(v -> v.ref().equals(ref))
                        .findFirst().ifPresent(v -> {
                            m.vm.set(v);
                            m.attaching.attach(() -> show(PassthroughWizardModel.Step.DONE));
                        }))));
    }

    private void defer() {
        ui.dialogs().showInfo("passthrough.title", i18n.get("passthrough.reboot.deferred"));
        stage.close();
    }

    private void refreshButtons() {
        PassthroughWizardModel.Step s = m.step.get();
        next.setText(i18n.get(s == PassthroughWizardModel.Step.PLAN ? "passthrough.next.apply"
                : s == PassthroughWizardModel.Step.ATTACH ? "passthrough.next.attach"
                : s == PassthroughWizardModel.Step.DONE ? "wizard.finish" : "wizard.next"));
    }

}
