package io.gpuforge.domain.passthrough;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.pci.PciAddress;
import java.util.List;
import java.util.Optional;

/**
 * Everything passthrough of one card changes: file edits with their diff, the commands that make them
 * take effect, whether a reboot is needed, and the changes on the VM side. Nothing happens until the
 * user applies it; planning the same thing on a host where it is applied yields no edits.
 */
public record PassthroughPlan(String id, String host, List<PciAddress> functions, List<FileEdit> edits,
                              List<String> commands, boolean rebootNeeded, List<VmChange> vmChanges, List<Message> notes) {

    /** One file: its content before ({@code empty} = the file does not exist yet) and after. */
    public record FileEdit(String path, Optional<String> before, String after) {
        public String diff() {
            return UnifiedDiff.of(path, before.orElse(null), after);
        }
    }

    /** A change on the hypervisor side, shown to the user; applied by the Proxmox or libvirt backend. */
    public record VmChange(String hypervisor, String description, String snippet) {
    }

    public PassthroughPlan {
        functions = List.copyOf(functions);
        edits = List.copyOf(edits);
        commands = List.copyOf(commands);
        vmChanges = List.copyOf(vmChanges);
        notes = List.copyOf(notes);
    }

    public boolean hostChangesNothing() {
        return edits.isEmpty();
    }

    /**
     * Whether this plan, made again at apply time, changes what {@code shown} changes (the same edits and commands):
     * what the user confirmed is what is applied.
     */
    public boolean changesAs(PassthroughPlan shown) {
        return edits.equals(shown.edits) && commands.equals(shown.commands);
    }
}
