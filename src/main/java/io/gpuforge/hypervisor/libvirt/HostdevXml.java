package io.gpuforge.hypervisor.libvirt;

import io.gpuforge.domain.vm.LibvirtHostdev;
import io.gpuforge.domain.pci.PciAddress;
import java.util.Optional;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * The {@code <hostdev>} and root-port elements GPU attach adds to a domain; the hostdev's XML comes from the one
 * builder ({@link LibvirtHostdev}) that also writes the domains GPUForge defines and the plans' snippets.
 */
final class HostdevXml {

    private HostdevXml() {
    }

    /** A managed PCI {@code <hostdev>} for host function {@code source} at guest address {@code guest}. */
    static Element hostdev(Document doc, PciAddress source, PciAddress guest, boolean multifunction)
            throws LibvirtBackendException {
        String xml = LibvirtHostdev.of(source).at(guest, multifunction).xml("");
        return (Element) doc.importNode(Xml.parse(xml), true);
    }

    /** A q35 PCIe root port with controller index {@code index}: its bus is where a card goes. */
    static Element rootPort(Document doc, int index) {
        Element c = doc.createElement("controller");
        c.setAttribute("type", "pci");
        c.setAttribute("model", "pcie-root-port");
        c.setAttribute("index", Integer.toString(index));
        return c;
    }

    static boolean isPci(Element hostdev) {
        return "pci".equals(hostdev.getAttribute("type"));
    }

    /** The host function of a PCI {@code <hostdev>}. */
    static Optional<PciAddress> source(Element hostdev) {
        return Xml.child(hostdev, "source").flatMap(s -> Xml.child(s, "address")).map(NodeDeviceXml::address);
    }

    /** What a user reads in the list of changes. */
    static String describe(PciAddress source, PciAddress guest, boolean multifunction) {
        return "<hostdev managed='yes'> " + source + " at guest " + guest + (multifunction ? " (multifunction)" : "");
    }
}
