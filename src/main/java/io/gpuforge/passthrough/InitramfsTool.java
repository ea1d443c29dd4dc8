package io.gpuforge.passthrough;

import io.gpuforge.domain.host.HostFacts;

/**
 * How a distribution's initramfs generator is told to include modules, and how it rebuilds the images.
 * vfio in the initramfs lets vfio-pci claim the card before its own driver loads.
 */
interface InitramfsTool {

    /** The edits that put these modules into the initramfs; none when they are there already. */
    PlanPart addModules(HostFacts f, VfioModules modules);

    /** The command that rebuilds the images of every installed kernel. */
    String rebuildCommand();

    /** The strategy for the tool the facts found; initramfs-tools when none was found (Debian, Proxmox VE). */
    static InitramfsTool forHost(HostFacts f) {
        switch (f.initramfs().tool()) {
            case DRACUT:
                return new Dracut();
            case MKINITCPIO:
                return new Mkinitcpio();
            default:
                return new InitramfsTools();
        }
    }
}
