package io.gpuforge.host.listing;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** lspci's class names (pci.ids "C" section) to 4-digit class codes, for listings without {@code [cccc]}. */
public final class PciClassNames {

    private static final Map<String, String> CODES = Map.ofEntries(
            Map.entry("non-vga unclassified device", "0001"), Map.entry("vga compatible unclassified device", "0001"),
            Map.entry("scsi storage controller", "0100"), Map.entry("ide interface", "0101"),
            Map.entry("raid bus controller", "0104"), Map.entry("sata controller", "0106"),
            Map.entry("serial attached scsi controller", "0107"), Map.entry("non-volatile memory controller", "0108"),
            Map.entry("mass storage controller", "0180"),
            Map.entry("ethernet controller", "0200"), Map.entry("network controller", "0280"),
            Map.entry("infiniband controller", "0207"),
            Map.entry("vga compatible controller", "0300"), Map.entry("xga compatible controller", "0301"),
            Map.entry("3d controller", "0302"), Map.entry("display controller", "0380"),
            Map.entry("multimedia video controller", "0400"), Map.entry("multimedia audio controller", "0401"),
            Map.entry("audio device", "0403"), Map.entry("multimedia controller", "0480"),
            Map.entry("ram memory", "0500"), Map.entry("flash memory", "0501"), Map.entry("memory controller", "0580"),
            Map.entry("host bridge", "0600"), Map.entry("isa bridge", "0601"), Map.entry("pci bridge", "0604"),
            Map.entry("cardbus bridge", "0607"), Map.entry("bridge", "0680"),
            Map.entry("communication controller", "0780"), Map.entry("serial controller", "0700"),
            Map.entry("pic", "0800"), Map.entry("iommu", "0806"), Map.entry("system peripheral", "0880"),
            Map.entry("usb controller", "0c03"), Map.entry("smbus", "0c05"), Map.entry("serial bus controller", "0c80"),
            Map.entry("signal processing controller", "1180"), Map.entry("encryption controller", "1080"),
            Map.entry("non-essential instrumentation", "1300"), Map.entry("processing accelerators", "1200"),
            Map.entry("unassigned class", "ff00"));

    private PciClassNames() {
    }

    static Optional<String> code(String className) {
        return Optional.ofNullable(CODES.get(className.strip().toLowerCase(Locale.ROOT)));
    }
}
