package io.gpuforge.host.probe;

import io.gpuforge.host.ProbeStream;

import io.gpuforge.domain.host.BootSetup;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.host.HostSummary;
import io.gpuforge.domain.host.ModprobeConfig;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciInventory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Turns one probe stream into {@link HostFacts}, each part from its reader: PCI devices and groups, the
 * IOMMU, the kernel log, the boot setup, modules, and the host's topology (management NIC, root disk).
 * Pure: no I/O beyond the optional pci.ids names. What a reader could not read it adds to the unknowns.
 */
public final class FactsAssembler {

    private final ProbeStream s;
    private final List<String> unknowns = new ArrayList<>();

    FactsAssembler(ProbeStream s) {
        this.s = s;
    }

    HostFacts assemble(String source) {
        Consumer<String> unknown = unknowns::add;
        Map<String, String> links = SysfsLinks.read(s);
        // the readers run in this order so that the unknowns read in it too
        PciInventory pci = new PciReader(s, links, unknown).inventory();
        IommuReader.Iommu iommu = new IommuReader(s, unknown).read();
        HostSummary summary = HostSummaryReader.summarize(rel -> file("/" + rel), s.cpus, iommu.state(),
                iommu.groups(), () -> "unknown");
        List<String> dmesg = new KernelLogReader(s, unknown).lines();
        BootSetup boot = new BootSetupReader(s, unknown).read();
        ModulesReader modules = new ModulesReader(s, unknown);
        List<String> loaded = modules.loaded();
        ModprobeConfig modprobe = modules.modprobe();
        HostFacts.Initramfs initramfs = modules.initramfs();
        HostTopology topology = new HostTopology(s, links, unknown);
        List<PciAddress> management = topology.managementDevices();
        List<PciAddress> root = topology.rootDevices();
        return new HostFacts(source, summary, file("/proc/cmdline").map(String::strip), boot,
                iommu.acpiDmar(), iommu.acpiIvrs(), iommu.state(), iommu.reason(),
                KernelLogReader.interruptRemapping(dmesg), pci, loaded, modprobe, initramfs, dmesg, management, root,
                s.exists.contains("/etc/pve"), s.files, s.exists, unknowns);
    }

    private Optional<String> file(String path) {
        return Optional.ofNullable(s.files.get(path));
    }
}
