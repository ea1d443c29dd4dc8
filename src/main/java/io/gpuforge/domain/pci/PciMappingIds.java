package io.gpuforge.domain.pci;

import java.util.Locale;

/**
 * The one rule for the name of a Proxmox VE PCI resource mapping GPUForge makes for a card: {@code gpu-<node>-<bus>-
 * <slot>} ({@code gpu-pve-4090-02-00}), in lower case, with what PVE refuses in an id turned to {@code -}. The plan's
 * preview, the attach and the VM wizard all name a new mapping by it (with {@code -2}, {@code -3}… when taken).
 */
public final class PciMappingIds {

    private PciMappingIds() {
    }

    /** The mapping's name for {@code card} on {@code node}. */
    public static String forCard(String node, PciAddress card) {
        return ("gpu-" + node + "-" + String.format(Locale.ROOT, "%02x-%02x", card.bus(), card.slot()))
                .toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_-]", "-");
    }
}
