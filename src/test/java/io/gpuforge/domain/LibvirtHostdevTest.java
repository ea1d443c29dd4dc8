package io.gpuforge.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.xml.sax.InputSource;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.LibvirtHostdev;

/** The {@code <hostdev>} element libvirt is given, as virsh prints one. */
class LibvirtHostdevTest {

    private static final PciAddress AUDIO = PciAddress.parse("0000:0b:00.1");

    private static Element parse(String xml) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new InputSource(new StringReader(xml)))
                .getDocumentElement();
    }

    @Test
    void aHostFunctionPlacedByLibvirt() throws Exception {
        String xml = LibvirtHostdev.of(AUDIO).xml("");
        assertThat(xml).isEqualTo("<hostdev mode='subsystem' type='pci' managed='yes'>\n"
                + "  <source>\n"
                + "    <address domain='0x0000' bus='0x0b' slot='0x00' function='0x1'/>\n"
                + "  </source>\n"
                + "</hostdev>\n");
        Element address = (Element) parse(xml).getElementsByTagName("address").item(0);
        assertThat(address.getAttribute("bus")).isEqualTo("0x0b");
        assertThat(address.getAttribute("function")).isEqualTo("0x1");
    }

    @Test
    void aFixedGuestSlotIndentedForADomain() throws Exception {
        String xml = LibvirtHostdev.of(PciAddress.parse("0000:42:00.0")).at(new PciAddress(0, 10, 0, 0), true).xml("    ");
        assertThat(xml.lines()).allMatch(l -> l.startsWith("    "));
        assertThat(xml).contains("\n      <address type='pci' domain='0x0000' bus='0x0a' slot='0x00' function='0x0'"
                + " multifunction='on'/>\n");
        Element hostdev = parse(xml);
        assertThat(hostdev.getAttribute("managed")).isEqualTo("yes");
        Element source = (Element) hostdev.getElementsByTagName("source").item(0);
        assertThat(((Element) source.getElementsByTagName("address").item(0)).getAttribute("bus")).isEqualTo("0x42");
    }

    @Test
    void addressForms() {
        assertThat(LibvirtHostdev.hostAddress(PciAddress.parse("000a:c1:1f.7")))
                .isEqualTo("<address domain='0x000a' bus='0xc1' slot='0x1f' function='0x7'/>");
        assertThat(LibvirtHostdev.guestAddress(new PciAddress(0, 11, 0, 1), false))
                .isEqualTo("<address type='pci' domain='0x0000' bus='0x0b' slot='0x00' function='0x1'/>");
    }
}
