package io.gpuforge.domain.host;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import io.gpuforge.domain.pci.IommuState;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciInventory;

/**
 * Everything GPU passthrough depends on, read from one host in one go. Facts that could not be read are
 * empty and named in {@code unknowns}; nothing here is guessed.
 *
 * @param source where the facts came from ("local", "ssh:root@pve1", "sysroot:/path", "listing:file")
 * @param iommuReason why the IOMMU is in its state, in a few words ("firmware", "kernel", "active", …)
 * @param managementDevices PCI functions behind the default route's interface (the management NIC)
 * @param rootDevices PCI functions behind the root file system (its storage controller)
 * @param files every configuration file read, path → content (what a plan edits starts from these)
 * @param present paths found to exist (tools such as {@code /usr/sbin/update-grub}, firmware nodes)
 */
public record HostFacts(String source, HostSummary summary, Optional<String> cmdline, BootSetup boot,
                        Optional<Boolean> acpiDmar, Optional<Boolean> acpiIvrs, IommuState iommu,
                        IommuReason iommuReason, Optional<Boolean> interruptRemapping, PciInventory pci,
                        List<String> loadedModules, ModprobeConfig modprobe, Initramfs initramfs,
                        List<String> dmesg, List<PciAddress> managementDevices, List<PciAddress> rootDevices,
                        boolean proxmox, Map<String, String> files, Set<String> present, List<String> unknowns) {

    /** Why the IOMMU is or is not active. */
    public enum IommuReason {
        /** groups are populated */
        ACTIVE,
        /** no DMAR/IVRS ACPI table: VT-d / AMD-Vi is off in the firmware setup */
        FIRMWARE,
        /** the firmware has it, the kernel does not use it (not requested, or turned off on the command line) */
        KERNEL,
        UNKNOWN
    }

    /** The initramfs generator in use and whether vfio is in the current image. */
    public record Initramfs(Tool tool, Optional<Boolean> vfioInImage) {
        public enum Tool { INITRAMFS_TOOLS, DRACUT, MKINITCPIO, UNKNOWN }
    }

    public HostFacts {
        Objects.requireNonNull(source);
        Objects.requireNonNull(summary);
        Objects.requireNonNull(pci);
        loadedModules = List.copyOf(loadedModules);
        dmesg = List.copyOf(dmesg);
        managementDevices = List.copyOf(managementDevices);
        rootDevices = List.copyOf(rootDevices);
        files = Map.copyOf(files);
        present = Set.copyOf(present);
        unknowns = List.copyOf(unknowns);
    }

    /**
     * What a pasted listing tells about a host: its PCI inventory and groups; everything else unknown.
     * A device bound to vfio-pci means the vfio-pci module is loaded.
     */
    public static HostFacts fromListing(String source, PciInventory pci) {
        IommuState state = pci.groups().isEmpty() ? IommuState.UNKNOWN : IommuState.ENABLED;
        HostSummary summary = new HostSummary("listing", Optional.empty(), Optional.empty(), "unknown", Optional.empty(),
                Optional.empty(), 0, Optional.empty(), state, pci.groups().size());
        BootSetup boot = new BootSetup(BootSetup.Mode.UNKNOWN, BootSetup.Loader.UNKNOWN, Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty());
        List<String> loaded = pci.devices().stream().anyMatch(d -> d.driver().equals(Optional.of("vfio-pci")))
                ? List.of("vfio_pci") : List.of();
        return new HostFacts(source, summary, Optional.empty(), boot, Optional.empty(), Optional.empty(), state,
                pci.groups().isEmpty() ? IommuReason.UNKNOWN : IommuReason.ACTIVE, Optional.empty(), pci, loaded,
                new ModprobeConfig(List.of(), Map.of(), List.of(), List.of(), List.of(), Map.of()),
                new Initramfs(Initramfs.Tool.UNKNOWN, Optional.empty()), List.of(), List.of(), List.of(), false, Map.of(),
                Set.of(), List.of("only a pasted IOMMU listing: firmware, kernel command line, modules and the host's"
                        + " own devices are unknown"));
    }

    /** The same facts with another source name and a note added first to the unknowns. */
    public HostFacts withSource(String newSource, List<String> extraUnknowns) {
        List<String> u = new ArrayList<>(extraUnknowns);
        u.addAll(unknowns);
        return new HostFacts(newSource, summary, cmdline, boot, acpiDmar, acpiIvrs, iommu, iommuReason,
                interruptRemapping, pci, loadedModules, modprobe, initramfs, dmesg, managementDevices, rootDevices,
                proxmox, files, present, u);
    }
}
