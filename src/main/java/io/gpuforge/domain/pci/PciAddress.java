package io.gpuforge.domain.pci;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A PCI function address {@code dddd:bb:ss.f}; the domain defaults to 0000 when a listing omits it. */
public record PciAddress(int domain, int bus, int slot, int function) implements Comparable<PciAddress> {

    private static final Pattern FORM = Pattern.compile(
            "^(?:([0-9a-fA-F]{1,8}):)?([0-9a-fA-F]{1,2}):([0-9a-fA-F]{1,2})\\.([0-7])$");

    public PciAddress {
        if (domain < 0 || domain > 0xffff || bus < 0 || bus > 0xff || slot < 0 || slot > 0x1f
                || function < 0 || function > 7) {
            throw new IllegalArgumentException("not a PCI address: " + domain + ":" + bus + ":" + slot + "." + function);
        }
    }

    public static PciAddress parse(String text) {
        Matcher m = FORM.matcher(text == null ? "" : text.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a PCI address: '" + text + "'");
        }
        int domain = m.group(1) == null ? 0 : Integer.parseInt(m.group(1), 16);
        return new PciAddress(domain, Integer.parseInt(m.group(2), 16), Integer.parseInt(m.group(3), 16),
                Integer.parseInt(m.group(4)));
    }

    public static boolean looksLike(String text) {
        return text != null && FORM.matcher(text.strip()).matches();
    }

    /** Same domain, bus and device: the functions of one card. */
    public boolean sameSlot(PciAddress other) {
        return domain == other.domain && bus == other.bus && slot == other.slot;
    }

    /**
     * The slot without the function, {@code dddd:bb:ss}: what every function of one card shares, and the form
     * Proxmox takes for a whole card ({@code hostpci0: 0000:01:00}, a mapping's {@code path=}).
     */
    public String slotAddress() {
        return String.format(Locale.ROOT, "%04x:%02x:%02x", domain, bus, slot);
    }

    /** libvirt's name for this function as a node device: {@code pci_0000_01_00_0}. */
    public String libvirtNodeDevice() {
        return String.format(Locale.ROOT, "pci_%04x_%02x_%02x_%x", domain, bus, slot, function);
    }

    @Override
    public int compareTo(PciAddress o) {
        int c = Integer.compare(domain, o.domain);
        if (c == 0) {
            c = Integer.compare(bus, o.bus);
        }
        if (c == 0) {
            c = Integer.compare(slot, o.slot);
        }
        return c != 0 ? c : Integer.compare(function, o.function);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%04x:%02x:%02x.%d", domain, bus, slot, function);
    }
}
