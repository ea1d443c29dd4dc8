package io.gpuforge.domain.diagnose;

import io.gpuforge.domain.message.Message;
import java.util.List;

/**
 * A fix GPUForge can make, in the terms the passthrough planner already uses: kernel arguments to add, modprobe
 * lines, udev rules, VM changes for Proxmox and libvirt, and commands. Nothing is applied from here; a later step
 * turns it into file edits against the host's own files.
 *
 * @param kernelArguments arguments for the kernel command line ({@code initcall_blacklist=sysfb_init})
 * @param modprobe lines for a file under {@code /etc/modprobe.d} ({@code options vfio-pci disable_idle_d3=1})
 * @param udevRules lines for a file under {@code /etc/udev/rules.d}
 * @param vmChanges changes of the VM's configuration, one per hypervisor
 * @param commands commands to run on the host
 */
public record FixPlan(List<String> kernelArguments, List<String> modprobe, List<String> udevRules,
                      List<VmEdit> vmChanges, List<String> commands) {

    /**
     * A change of the VM's configuration on one hypervisor ({@code proxmox}, {@code libvirt}): what it does, in
     * words, and the configuration it writes.
     */
    public record VmEdit(String hypervisor, Message description, String snippet) {

        public VmEdit {
            java.util.Objects.requireNonNull(hypervisor);
            java.util.Objects.requireNonNull(description);
            java.util.Objects.requireNonNull(snippet);
        }
    }

    public FixPlan {
        kernelArguments = List.copyOf(kernelArguments);
        modprobe = List.copyOf(modprobe);
        udevRules = List.copyOf(udevRules);
        vmChanges = List.copyOf(vmChanges);
        commands = List.copyOf(commands);
    }

    public static FixPlan kernelArguments(String... arguments) {
        return new FixPlan(List.of(arguments), List.of(), List.of(), List.of(), List.of());
    }

    public static FixPlan modprobe(String... lines) {
        return new FixPlan(List.of(), List.of(lines), List.of(), List.of(), List.of());
    }

    public static FixPlan vm(VmEdit... changes) {
        return new FixPlan(List.of(), List.of(), List.of(), List.of(changes), List.of());
    }

    public FixPlan withUdevRules(List<String> rules) {
        return new FixPlan(kernelArguments, modprobe, concat(udevRules, rules), vmChanges, commands);
    }

    public FixPlan withModprobe(List<String> lines) {
        return new FixPlan(kernelArguments, concat(modprobe, lines), udevRules, vmChanges, commands);
    }

    public FixPlan withCommands(List<String> more) {
        return new FixPlan(kernelArguments, modprobe, udevRules, vmChanges, concat(commands, more));
    }

    public boolean isEmpty() {
        return !touchesHost() && vmChanges.isEmpty();
    }

    /** Whether any of it is the host's: kernel arguments, modprobe lines, udev rules, commands to run there. */
    public boolean touchesHost() {
        return !kernelArguments.isEmpty() || !modprobe.isEmpty() || !udevRules.isEmpty() || !commands.isEmpty();
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}
