package io.gpuforge.passthrough;

import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.host.HostFacts;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * systemd-boot as Proxmox VE sets it up ({@code proxmox-boot-tool}): the command line is the one line of
 * {@code /etc/kernel/cmdline}, copied to the ESPs by {@code proxmox-boot-tool refresh}. Where the file does not
 * exist yet, proxmox-boot-tool makes it from the running command line; without proxmox-boot-tool, the loader
 * entries are the distribution's business and the user is told exactly what to add.
 */
final class SystemdBootLoader implements BootLoader {

    static final String FILE = "/etc/kernel/cmdline";
    static final String REFRESH = "proxmox-boot-tool refresh";
    static final String TOOL = "/usr/sbin/proxmox-boot-tool";

    @Override
    public PlanPart kernelArguments(HostFacts f, KernelArguments args) {
        Optional<String> file = f.boot().kernelCmdlineFile();
        if (file.isEmpty()) {
            return withoutFile(f, args);
        }
        String current = file.get();
        String before = f.files().getOrDefault(FILE, current + "\n");
        String after = args.applyTo(current) + "\n";
        if (after.strip().equals(current.strip())) {
            return PlanPart.none();
        }
        return PlanPart.edit(new PassthroughPlan.FileEdit(FILE, Optional.of(before), after)).withCommand(REFRESH);
    }

    private static PlanPart withoutFile(HostFacts f, KernelArguments args) {
        boolean pveTool = f.present().contains(TOOL) || f.boot().loaderDetail().map(d -> d.contains("proxmox-boot-tool"))
                .orElse(false);
        Optional<String> running = f.cmdline().map(SystemdBootLoader::withoutLoaderArguments).filter(c -> !c.isBlank());
        if (!pveTool || running.isEmpty()) {
            return PlanPart.note(Message.of("note.systemdBootNoCmdline", FILE, args.joined()));
        }
        String after = args.applyTo(running.get()) + "\n";
        return PlanPart.edit(new PassthroughPlan.FileEdit(FILE, Optional.empty(), after)).withCommand(REFRESH)
                .and(PlanPart.note(Message.of("note.systemdBootMade", FILE)));
    }

    /** The running command line without what the boot loader adds itself (initrd=, BOOT_IMAGE=). */
    static String withoutLoaderArguments(String cmdline) {
        return Arrays.stream(cmdline.strip().split("\\s+"))
                .filter(t -> !t.startsWith("initrd=") && !t.startsWith("BOOT_IMAGE="))
                .collect(Collectors.joining(" "));
    }
}
