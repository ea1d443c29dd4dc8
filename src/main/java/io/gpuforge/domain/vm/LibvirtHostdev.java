package io.gpuforge.domain.vm;

import java.util.Locale;
import java.util.Optional;
import io.gpuforge.domain.pci.PciAddress;

/**
 * A managed libvirt {@code <hostdev>} for one host PCI function: the one place that writes its XML, used for
 * the domains GPUForge defines and for the libvirt side of a passthrough plan. Pure text, no libvirt.
 *
 * @param source the host function handed to the guest
 * @param guest where the guest sees it; empty lets libvirt choose
 */
public record LibvirtHostdev(PciAddress source, Optional<GuestSlot> guest) {

    /** The guest-side PCI address; {@code multifunction} on the first function of a card with several. */
    public record GuestSlot(PciAddress address, boolean multifunction) {
    }

    public LibvirtHostdev {
        if (source == null || guest == null) {
            throw new IllegalArgumentException("a hostdev needs a source address");
        }
    }

    /** The host function, placed by libvirt in the guest. */
    public static LibvirtHostdev of(PciAddress source) {
        return new LibvirtHostdev(source, Optional.empty());
    }

    /** The same function at a fixed guest address. */
    public LibvirtHostdev at(PciAddress guestAddress, boolean multifunction) {
        return new LibvirtHostdev(source, Optional.of(new GuestSlot(guestAddress, multifunction)));
    }

    /** The element, one tag a line, each line starting with {@code indent} and ending with a newline. */
    public String xml(String indent) {
        StringBuilder x = new StringBuilder();
        x.append(indent).append("<hostdev mode='subsystem' type='pci' managed='yes'>\n");
        x.append(indent).append("  <source>\n");
        x.append(indent).append("    ").append(hostAddress(source)).append('\n');
        x.append(indent).append("  </source>\n");
        guest.ifPresent(g -> x.append(indent).append("  ").append(guestAddress(g.address(), g.multifunction()))
                .append('\n'));
        x.append(indent).append("</hostdev>\n");
        return x.toString();
    }

    /** {@code <address domain='0x0000' bus='0x01' slot='0x00' function='0x0'/>}: a function on the host. */
    public static String hostAddress(PciAddress a) {
        return address(a, "", "");
    }

    /** {@code <address type='pci' domain=… function='0x0' multifunction='on'/>}: a function in the guest. */
    public static String guestAddress(PciAddress a, boolean multifunction) {
        return address(a, "type='pci' ", multifunction ? " multifunction='on'" : "");
    }

    private static String address(PciAddress a, String type, String suffix) {
        return String.format(Locale.ROOT, "<address %sdomain='0x%04x' bus='0x%02x' slot='0x%02x' function='0x%x'%s/>",
                type, a.domain(), a.bus(), a.slot(), a.function(), suffix);
    }
}
