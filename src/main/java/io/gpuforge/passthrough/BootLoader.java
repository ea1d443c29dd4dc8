package io.gpuforge.passthrough;

import io.gpuforge.domain.host.BootSetup;
import io.gpuforge.domain.host.HostFacts;

/** Where a boot loader keeps the kernel command line, and how a change there takes effect. */
interface BootLoader {

    /** The edits (and refresh command) that give the next boot these arguments; none when it has them. */
    PlanPart kernelArguments(HostFacts f, KernelArguments args);

    /** The strategy for the boot loader the facts found. */
    static BootLoader forHost(HostFacts f) {
        BootSetup b = f.boot();
        if (b.loader() == BootSetup.Loader.SYSTEMD_BOOT) {
            return new SystemdBootLoader();
        }
        if (b.loader() == BootSetup.Loader.GRUB) {
            return new GrubBootLoader();
        }
        return new UnknownBootLoader();
    }
}
