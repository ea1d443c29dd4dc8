package io.gpuforge.ui.passthrough;

import io.gpuforge.app.passthrough.GpuAssignments;
import io.gpuforge.app.backends.PciMappings;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.vm.GpuAttachResult;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.ui.common.I18n;
import io.gpuforge.ui.common.UiContext;
import java.util.List;
import java.util.Optional;

/**
 * Detaching a GPU from a VM, from the VM ("Detach GPU…") or from the GPU: asks first, takes every function of the card
 * away in one checked write, shows exactly what changed, and where that leaves a Proxmox PCI resource mapping no VM
 * uses any more, offers to remove it.
 */
public final class GpuDetach {

    private GpuDetach() {
    }

    /** Detaches {@code gpu} from {@code vm} of connection {@code c} after a confirmation. */
    public static void detach(UiContext ui, PassthroughServices services, ConnectionInfo c, VmRef vm,
                              PciAddress gpu) {
        I18n i18n = ui.i18n();
        if (!ui.dialogs().confirm("detach.title", i18n.get("detach.confirm", gpu, vm.id(), vm.node()))) {
            return;
        }
        GpuAssignments assignments = new GpuAssignments();
        PciMappings mappings = services.mappings();
        ui.tasks().supply(i18n.get("detach.task", gpu, vm.id()), () -> {
            GpuAttachResult r = assignments.detach(services.sessions().of(c), vm, gpu);
            boolean pve = c.kind() == ConnectionInfo.Kind.PROXMOX || c.kind() == ConnectionInfo.Kind.DEMO;
            Optional<GpuAssignments.UnusedMapping> unused = pve ? mappings.unused(c).stream()
                    .filter(m -> m.node().equals(vm.node()) && m.card().sameSlot(gpu)).findFirst() : Optional.empty();
            return new Detached(r.changes(), unused);
        }).onSuccess(d -> {
            ui.dialogs().showInfo("detach.title", i18n.get("detach.done", gpu, vm.id(), String.join("\n", d.changes())));
            d.unused().ifPresent(m -> removeMapping(ui, services, c, m));
        }).onError(e -> ui.dialogs().showError("detach.title", i18n.get("detach.failed", e.getMessage()), e)).start();
    }

    /** Offers to remove a mapping nobody uses (also from a GPU of a connection page). */
    public static void removeMapping(UiContext ui, PassthroughServices services, ConnectionInfo c,
                                     GpuAssignments.UnusedMapping m) {
        I18n i18n = ui.i18n();
        if (!ui.dialogs().confirm("detach.title", i18n.get("detach.mapping.confirm", m.id(), m.card(), m.node()))) {
            return;
        }
        ui.tasks().supply(i18n.get("detach.mapping.task", m.id()), () -> {
            services.mappings().remove(c, m.id());
            return m.id();
        }).onSuccess(id -> ui.dialogs().showInfo("detach.title", i18n.get("detach.mapping.done", id)))
                .onError(e -> ui.dialogs().showError("detach.title", i18n.get("detach.failed", e.getMessage()), e)).start();
    }

    private record Detached(List<String> changes, Optional<GpuAssignments.UnusedMapping> unused) {
    }
}
