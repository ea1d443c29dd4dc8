package io.gpuforge.app.passthrough;

import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.IommuGroup;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A host's IOMMU groups in the classic listing format people post and paste (the {@code for g in
 * /sys/kernel/iommu_groups/*} loop with {@code lspci -nns}): {@code IOMMU Group 12:} and one tab-indented lspci line
 * per device, {@code 01:00.0 VGA compatible controller [0300]: NVIDIA Corporation AD102 [GeForce RTX 4090]
 * [10de:2684]}. What GPUForge reads back from a pasted listing is the same host. Pure.
 */
public final class ListingText {

    private static final Map<String, String> CLASS_NAMES = Map.ofEntries(
            Map.entry("0000", "Non-VGA unclassified device"), Map.entry("0100", "SCSI storage controller"),
            Map.entry("0101", "IDE interface"), Map.entry("0104", "RAID bus controller"),
            Map.entry("0106", "SATA controller"), Map.entry("0107", "Serial Attached SCSI controller"),
            Map.entry("0108", "Non-Volatile memory controller"), Map.entry("0200", "Ethernet controller"),
            Map.entry("0280", "Network controller"), Map.entry("0300", "VGA compatible controller"),
            Map.entry("0302", "3D controller"), Map.entry("0380", "Display controller"),
            Map.entry("0401", "Multimedia audio controller"), Map.entry("0403", "Audio device"),
            Map.entry("0480", "Multimedia controller"), Map.entry("0500", "RAM memory"),
            Map.entry("0600", "Host bridge"), Map.entry("0601", "ISA bridge"), Map.entry("0604", "PCI bridge"),
            Map.entry("0680", "Bridge"), Map.entry("0700", "Serial controller"),
            Map.entry("0780", "Communication controller"), Map.entry("0806", "IOMMU"),
            Map.entry("0880", "System peripheral"), Map.entry("0c03", "USB controller"), Map.entry("0c05", "SMBus"),
            Map.entry("0c80", "Serial bus controller"), Map.entry("1080", "Encryption controller"),
            Map.entry("1180", "Signal processing controller"), Map.entry("1200", "Processing accelerators"),
            Map.entry("1300", "Non-Essential Instrumentation"), Map.entry("ff00", "Unassigned class"));

    private ListingText() {
    }

    public static String of(HostFacts f) {
        StringBuilder out = new StringBuilder();
        Set<PciAddress> listed = new HashSet<>();
        for (IommuGroup g : f.pci().groups().stream().sorted((a, b) -> Integer.compare(a.id(), b.id())).toList()) {
            out.append("IOMMU Group ").append(g.id()).append(":\n");
            for (PciAddress a : g.members()) {
                f.pci().device(a).ifPresent(d -> out.append('\t').append(line(d)).append('\n'));
                listed.add(a);
            }
        }
        for (PciDevice d : f.pci().devices()) {
            if (!listed.contains(d.address())) {
                out.append(line(d)).append('\n');
            }
        }
        return out.toString();
    }

    /** One device as {@code lspci -nns} prints it (the domain only when it is not 0000). */
    static String line(PciDevice d) {
        PciAddress a = d.address();
        String addr = a.domain() == 0 ? String.format(Locale.ROOT, "%02x:%02x.%d", a.bus(), a.slot(), a.function())
                : a.toString();
        String cls = d.classCode() == null ? "0000" : d.classCode();
        String ids = d.vendorId() == null ? "" : " [" + d.vendorId() + ":" + d.deviceId() + "]";
        return addr + " " + CLASS_NAMES.getOrDefault(cls, "Class " + cls) + " [" + cls + "]: "
                + d.name().orElse("Device") + ids;
    }
}
