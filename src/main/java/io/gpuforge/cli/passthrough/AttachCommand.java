package io.gpuforge.cli.passthrough;

import io.gpuforge.app.passthrough.GpuAssignments;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.GpuAttachResult;
import io.gpuforge.domain.vm.VmRef;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;

/**
 * {@code gpuforge attach}: gives a GPU (every function of its card) to a stopped VM. Proxmox VE: the PCI resource
 * mapping that names the card is reused or one is created (so it works with an API token), then {@code hostpciN},
 * q35, OVMF with an EFI disk and no balloon, written with the configuration's digest. libvirt: a managed
 * {@code <hostdev>} per function.
 */
@Command(name = "attach", mixinStandardHelpOptions = true,
        description = "Pass a GPU through to a VM (Proxmox VE mapping + hostpciN, or libvirt <hostdev>).")
public final class AttachCommand extends VmGpuCommand {

    @Option(names = "--primary", description = "The VM's primary display (x-vga=1 on Proxmox VE).")
    boolean primary;

    @Option(names = "--mapping", paramLabel = "NAME", description = "Proxmox VE: the name of a new PCI resource mapping"
            + " (default: derived from the node and slot).")
    String mapping;

    @Option(names = "--efi-storage", paramLabel = "STORAGE", description = "Proxmox VE: where the EFI disk goes when the"
            + " VM has none (default: beside its first disk).")
    String efiStorage;

    AttachCommand(CliServices services) {
        super(services);
    }

    @Override
    String verb() {
        return "attach";
    }

    @Override
    String done() {
        return "attached";
    }

    @Override
    GpuAttachResult change(VmOptions.Opened h, VmRef vm) throws BackendException {
        return new GpuAssignments().attach(h.session, new GpuAssignments.Attach(vm, target.device(), primary,
                Optional.ofNullable(mapping), Optional.ofNullable(efiStorage)));
    }

    /** The changes, line by line (or as JSON). */
    static void print(CliOutput o, String status, String where, VmRef vm, GpuAttachResult r, boolean json) {
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("status", status);
            m.put("connection", where);
            m.put("node", vm.node());
            m.put("vm", vm.id());
            m.put("changes", r.changes());
            m.put("host_devices", r.after().details().hostDevices().stream().map(Object::toString).toList());
            m.put("version", r.after().version());
            o.json(m);
            return;
        }
        o.line("VM " + vm.id() + " on " + vm.node() + " (" + where + "), " + status + ":");
        r.changes().forEach(c -> o.line("  " + c));
    }
}
