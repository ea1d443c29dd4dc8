package io.gpuforge.ui.passthrough;

import io.gpuforge.app.passthrough.AttachPreflight;
import io.gpuforge.app.passthrough.GpuAssignments;
import io.gpuforge.app.passthrough.PassthroughProposal;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import java.util.List;
import java.util.Optional;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;

/**
 * The wizard's Attach step, as {@code gpuforge passthrough} does it: the VM chosen is checked before anything is
 * written (the card free, the GPUs it has kept only when the user says so, the hypervisor's dry run of the attach),
 * the page shows exactly the lines the attach will write, and the attach writes those against the configuration they
 * were planned on; a VM changed meanwhile is not written and the page shows its new lines.
 */
final class WizardAttach {

    /** The check of one VM: which, what becomes of the GPUs it has, and what it would get or why not. */
    record Checked(VmRef vm, AttachPreflight.Held held, AttachPreflight.Result result) {
        boolean okFor(VmRef other, AttachPreflight.Held h) {
            return vm.equals(other) && held == h && result.ok();
        }
    }

    final ObjectProperty<Checked> checked = new SimpleObjectProperty<>();
    /** The VM has a GPU already and gets this one as well. */
    final BooleanProperty addGpu = new SimpleBooleanProperty();
    /** The VM has a GPU already and gets this one instead, in the same change. */
    final BooleanProperty replaceGpu = new SimpleBooleanProperty();
    private final PassthroughWizardModel m;
    private final GpuAssignments assignments = new GpuAssignments();
    private final AttachPreflight preflight = new AttachPreflight(assignments);

    WizardAttach(PassthroughWizardModel m) {
        this.m = m;
        addGpu.addListener((o, a, b) -> {
            if (b) {
                replaceGpu.set(false);
            }
            check(() -> { });
        });
        replaceGpu.addListener((o, a, b) -> {
            if (b) {
                addGpu.set(false);
            }
            check(() -> { });
        });
    }

    /** What the user chose for the GPUs the VM has. */
    AttachPreflight.Held held() {
        return addGpu.get() ? AttachPreflight.Held.KEEP : replaceGpu.get() ? AttachPreflight.Held.REPLACE
                : AttachPreflight.Held.REFUSE;
    }

    /** Whether the VM chosen passed its check (for the Next button). */
    boolean ready() {
        return m.vm.get() != null && checked.get() != null && checked.get().okFor(m.vm.get().ref(), held());
    }

    /** Checks the VM chosen now; the page shows the outcome. */
    void check(Runnable then) {
        Optional<ConnectionSession> s = m.session();
        if (s.isEmpty() || m.vm.get() == null) {
            checked.set(null);
            then.run();
            return;
        }
        VmRef vm = m.vm.get().ref();
        PciAddress card = m.gpu.get();
        AttachPreflight.Held held = held();
        checked.set(null);
        m.run("passthrough.task.attachCheck", () -> new Checked(vm, held, preflight.check(s.get(), vm, card, false,
                held)), c -> {
                    if (m.vm.get() != null && m.vm.get().ref().equals(c.vm()) && held() == c.held()) {
                        checked.set(c);
                    }
                    then.run();
                });
    }

    /** The user chose {@code vm} on the page: it is checked, unless it is the one checked (or confirmed) already. */
    void chosen(VmInfo vm) {
        m.vm.set(vm);
        if (vm != null && (checked.get() == null || !checked.get().vm().equals(vm.ref()))) {
            check(() -> { });
        }
    }

    /** The one-click run confirmed this plan: its VM lines are what the attach must find again. */
    void confirmed(PassthroughProposal p) {
        checked.set(new Checked(p.vm(), held(), new AttachPreflight.Result(p.vmName(), p.vmChanges(),
                p.vmVersion(), p.kept(), List.of())));
    }

    /**
     * Attaches as shown: checked again first; lines or a version that moved since are not written, and become what
     * the page shows. A VM the user did not see checked (one just created for the GPU) is checked and attached.
     */
    void attach(Runnable then) {
        ConnectionSession s = m.session().orElseThrow();
        VmRef vm = m.vm.get().ref();
        PciAddress card = m.gpu.get();
        AttachPreflight.Held held = held();
        Optional<Checked> shown = Optional.ofNullable(checked.get()).filter(c -> c.vm().equals(vm));
        m.run("passthrough.task.attach", () -> {
            AttachPreflight.Result now = preflight.check(s, vm, card, false, held);
            if (!now.ok()) {
                throw new IllegalStateException(String.join("; ", now.refusals()));
            }
            if (shown.isPresent() && (!now.version().equals(shown.get().result().version())
                    || !now.changes().equals(shown.get().result().changes()))) {
                javafx.application.Platform.runLater(() -> checked.set(new Checked(vm, held, now)));
                throw new IllegalStateException(m.ui.i18n().get("passthrough.attach.moved", vm.id()));
            }
            return assignments.attach(s, now.request().orElseThrow());
        }, r -> {
            m.attached.set(r);
            then.run();
        });
    }
}
