package io.gpuforge.hypervisor.libvirt;

import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import org.w3c.dom.Element;

/**
 * Reads a libvirt node device ({@code virsh nodedev-dumpxml}) into a {@link PciDevice}: address, ids and
 * names, class, bound driver, IOMMU group and its members, NUMA node, PCIe link, SR-IOV functions.
 */
public final class NodeDeviceXml {

    /** A PCI node device and the members libvirt lists for its IOMMU group. */
    public record Parsed(PciDevice device, List<PciAddress> groupMembers, List<PciAddress> virtualFunctions,
                         Optional<String> linkCapability) {
        public Parsed {
            groupMembers = List.copyOf(groupMembers);
            virtualFunctions = List.copyOf(virtualFunctions);
        }
    }

    private NodeDeviceXml() {
    }

    /** Empty for devices that are not PCI (USB, net, storage…). */
    public static Optional<Parsed> parse(String xml) throws LibvirtBackendException {
        Element root = Xml.parse(xml);
        Optional<Element> pci = Xml.children(root, "capability").stream()
                .filter(c -> "pci".equals(c.getAttribute("type"))).findFirst();
        if (pci.isEmpty()) {
            return Optional.empty();
        }
        Element cap = pci.get();
        try {
            PciAddress address = new PciAddress(Xml.number(Xml.text(cap, "domain").orElse("0"), "<domain>"),
                    Xml.number(Xml.text(cap, "bus").orElseThrow(), "<bus>"),
                    Xml.number(Xml.text(cap, "slot").orElseThrow(), "<slot>"),
                    Xml.number(Xml.text(cap, "function").orElseThrow(), "<function>"));
            Element vendor = Xml.child(cap, "vendor").orElseThrow();
            Element product = Xml.child(cap, "product").orElseThrow();
            String cls = Xml.text(cap, "class").orElse(null);
            String vendorName = vendor.getTextContent().strip();
            String productName = product.getTextContent().strip();
            String name = (vendorName + " " + productName).strip();
            Optional<String> driver = Xml.child(root, "driver").flatMap(d -> Xml.text(d, "name"));
            OptionalInt group = OptionalInt.empty();
            List<PciAddress> members = new ArrayList<>();
            Optional<Element> g = Xml.child(cap, "iommuGroup");
            if (g.isPresent()) {
                group = OptionalInt.of(Integer.parseInt(g.get().getAttribute("number")));
                for (Element a : Xml.children(g.get(), "address")) {
                    members.add(address(a));
                }
            }
            OptionalInt numa = Xml.child(cap, "numa").flatMap(n -> Xml.attr(n, "node")).map(Integer::parseInt)
                    .filter(n -> n >= 0).map(OptionalInt::of).orElse(OptionalInt.empty());
            Optional<String> speed = Optional.empty();
            OptionalInt width = OptionalInt.empty();
            Optional<String> linkCap = Optional.empty();
            Optional<Element> pcie = Xml.child(cap, "pci-express");
            if (pcie.isPresent()) {
                for (Element link : Xml.children(pcie.get(), "link")) {
                    String desc = link.getAttribute("speed") + " GT/s x" + link.getAttribute("width");
                    if ("sta".equals(link.getAttribute("validity"))) {
                        speed = Optional.of(link.getAttribute("speed") + " GT/s");
                        width = OptionalInt.of(Integer.parseInt(link.getAttribute("width")));
                    } else if ("cap".equals(link.getAttribute("validity"))) {
                        linkCap = Optional.of(desc);
                    }
                }
            }
            List<PciAddress> vfs = new ArrayList<>();
            Optional<PciAddress> pf = Optional.empty();
            int totalVfs = -1;
            for (Element c : Xml.children(cap, "capability")) {
                if ("virt_functions".equals(c.getAttribute("type"))) {
                    totalVfs = Xml.attr(c, "maxCount").map(Integer::parseInt).orElse(-1);
                    for (Element a : Xml.children(c, "address")) {
                        vfs.add(address(a));
                    }
                } else if ("phys_function".equals(c.getAttribute("type"))) {
                    pf = Xml.child(c, "address").map(NodeDeviceXml::address);
                }
            }
            PciDevice.Details details = new PciDevice.Details(Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.empty(), List.of(), Optional.empty(),
                    totalVfs >= 0 ? OptionalInt.of(totalVfs) : OptionalInt.empty(),
                    totalVfs >= 0 ? OptionalInt.of(vfs.size()) : OptionalInt.empty(), pf, List.of(), false,
                    Optional.empty(), numa, speed, width, Optional.empty(), List.of());
            PciDevice d = new PciDevice(address, hex(vendor.getAttribute("id")), hex(product.getAttribute("id")),
                    cls == null ? null : cls, name.isEmpty() ? Optional.empty() : Optional.of(name), driver, group, details);
            return Optional.of(new Parsed(d, members, vfs, linkCap));
        } catch (RuntimeException e) {
            throw new LibvirtBackendException("A PCI node device description is incomplete: " + e.getMessage(), e);
        }
    }

    /** An {@code <address domain= bus= slot= function=>}; a malformed one is an {@link Xml.Malformed} naming it. */
    static PciAddress address(Element a) {
        int domain = Xml.number(a, "domain");
        int bus = Xml.number(a, "bus");
        int slot = Xml.number(a, "slot");
        int function = Xml.number(a, "function");
        try {
            return new PciAddress(domain, bus, slot, function);
        } catch (IllegalArgumentException e) {
            throw new Xml.Malformed("<address domain='" + Xml.clip(a.getAttribute("domain")) + "' bus='"
                    + Xml.clip(a.getAttribute("bus")) + "' slot='" + Xml.clip(a.getAttribute("slot")) + "' function='"
                    + Xml.clip(a.getAttribute("function")) + "'> is not a PCI address (bus 0-0xff, slot 0-0x1f,"
                    + " function 0-7)");
        }
    }

    private static String hex(String id) {
        String s = id.strip().toLowerCase(Locale.ROOT);
        return s.startsWith("0x") ? s.substring(2) : s;
    }
}
