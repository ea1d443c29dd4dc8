package io.gpuforge.ui.common;

import io.gpuforge.app.host.HostTarget;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.VmRef;
import java.util.Optional;
import java.util.function.Consumer;
import javafx.stage.Window;

/**
 * Where one window feature opens another that it may not know (the layer rules keep window features apart): the
 * shell, which composes them, links them here. The passthrough wizard's "Create a VM…" opens the VM creation
 * wizard through {@link #vmCreation}, its Done page a VM's diagnosis through {@link #vmDiagnosis}; the cluster's
 * pages open the passthrough wizard at a GPU through {@link #passthrough}, the container wizard passthrough's
 * rollback through {@link #rollback}. FX thread.
 */
public final class WindowLinks {

    /** Opens the VM creation wizard for a node; {@code closed} hears, when it closes, the VM it created if any. */
    @FunctionalInterface
    public interface VmCreation {
        void open(Window owner, ConnectionInfo connection, String node, Consumer<Optional<VmRef>> closed);
    }

    /** Opens "Why did it fail?" for a VM: its evidence collected, the cause, the fix as a plan. */
    @FunctionalInterface
    public interface VmDiagnosis {
        void open(Window owner, ConnectionInfo connection, VmRef vm);
    }

    /** Opens the passthrough wizard at a node's GPU. */
    @FunctionalInterface
    public interface Passthrough {
        void open(Window owner, ConnectionInfo connection, String node, PciAddress gpu);
    }

    /** Opens passthrough's rollback for a host: what GPUForge changed there, undone. */
    @FunctionalInterface
    public interface Rollback {
        void open(Window owner, HostTarget host);
    }

    private VmCreation vmCreation;
    private VmDiagnosis vmDiagnosis;
    private Passthrough passthrough;
    private Rollback rollback;

    public void passthrough(Passthrough wizard) {
        this.passthrough = wizard;
    }

    /** The passthrough wizard, where the shell linked it (empty in a window without it). */
    public Optional<Passthrough> passthrough() {
        return Optional.ofNullable(passthrough);
    }

    public void rollback(Rollback rollback) {
        this.rollback = rollback;
    }

    /** Passthrough's rollback, where the shell linked it (empty in a window without it). */
    public Optional<Rollback> rollback() {
        return Optional.ofNullable(rollback);
    }

    public void vmDiagnosis(VmDiagnosis diagnosis) {
        this.vmDiagnosis = diagnosis;
    }

    /** A VM's diagnosis, where the shell linked it (empty in a window without it). */
    public Optional<VmDiagnosis> vmDiagnosis() {
        return Optional.ofNullable(vmDiagnosis);
    }

    public void vmCreation(VmCreation creation) {
        this.vmCreation = creation;
    }

    /** The VM creation wizard, where the shell linked it (empty in a window without it). */
    public Optional<VmCreation> vmCreation() {
        return Optional.ofNullable(vmCreation);
    }
}
