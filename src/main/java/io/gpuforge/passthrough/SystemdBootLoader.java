package io.gpuforge.passthrough;

import io.gpuforge.domain.HostFacts;
import java.util.Optional;

/**
 * systemd-boot as Proxmox VE sets it up ({@code proxmox-boot-tool}): the command line is the one line of
 * {@code /etc/kernel/cmdline}, copied to the ESPs by {@code proxmox-boot-tool refresh}.
 */
final class SystemdBootLoader implements BootLoader {

    static final String FILE = "/etc/kernel/cmdline";
    static final String REFRESH = "proxmox-boot-tool refresh";

    @Override
    public PlanPart kernelArguments(HostFacts f, KernelArguments args) {
        String current = f.boot().kernelCmdlineFile().orElse("");
        String before = f.files().getOrDefault(FILE, current + "\n");
        String after = args.applyTo(current) + "\n";
        if (after.strip().equals(current.strip())) {
            return PlanPart.none();
        }
        return PlanPart.edit(new PassthroughPlan.FileEdit(FILE, Optional.of(before), after)).withCommand(REFRESH);
    }
}
