package io.gpuforge.passthrough;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.host.ProbeText;
import java.io.StringReader;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/** The VM side of a plan: a PCI mapping and hostpci0 on Proxmox VE, managed hostdevs on libvirt. */
class VmChangeBuilderTest {

    private static ProbeText card() {
        return new ProbeText().file("/etc/hostname", "pve-gpu1\n")
                .gpu("0000:81:00.0", "10de", "2204", "030000", 40, "vfio-pci")
                .gpu("0000:81:00.1", "10de", "1aef", "040300", 40, "vfio-pci");
    }

    private static List<PassthroughPlan.VmChange> changes(HostFacts f, String vm) {
        List<PciDevice> functions = f.pci().devices();
        return VmChangeBuilder.forHost(f).changes(f, functions.get(0), functions, vm);
    }

    @Test
    void proxmoxGetsAMappingAndTheVmConfiguration() throws Exception {
        List<PassthroughPlan.VmChange> c = changes(card().exists("/etc/pve").facts(), "210");
        assertThat(c).extracting(PassthroughPlan.VmChange::hypervisor).containsExactly("proxmox", "proxmox");
        assertThat(c.get(0).snippet()).isEqualTo("pvesh create /cluster/mapping/pci --id gpu-pve-gpu1-81-00 --map node=pve-gpu1,"
                + "path=0000:81:00,id=10de:2204,iommugroup=40");
        assertThat(c.get(1).description()).isEqualTo("VM 210 configuration");
        assertThat(c.get(1).snippet()).isEqualTo("hostpciN: mapping=gpu-pve-gpu1-81-00,pcie=1 (N: the VM's first free)\nmachine: q35\nbios: ovmf\n"
                + "efidisk0: <storage>:1,efitype=4m,pre-enrolled-keys=0\nballoon: 0");
    }

    @Test
    void aProxmoxCardWithoutAGroupHasNoneInItsMapping() throws Exception {
        HostFacts f = new ProbeText().exists("/etc/pve").file("/etc/hostname", "pve2\n")
                .gpu("0000:c1:00.0", "1002", "744c", "030000", -1, "amdgpu").facts();
        assertThat(changes(f, "<vmid>").get(0).snippet()).endsWith("--id gpu-pve2-c1-00 --map node=pve2,path=0000:c1:00,"
                + "id=1002:744c");
    }

    @Test
    void libvirtGetsAManagedHostdevPerFunction() throws Exception {
        List<PassthroughPlan.VmChange> c = changes(card().facts(), "<vmid>");
        assertThat(c).singleElement().satisfies(v -> {
            assertThat(v.hypervisor()).isEqualTo("libvirt");
            assertThat(v.description()).isEqualTo("host devices of domain <vmid> (q35 machine, OVMF firmware)");
        });
        Element devices = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new InputSource(new StringReader("<devices>" + c.get(0).snippet() + "</devices>")))
                .getDocumentElement();
        NodeList hostdevs = devices.getElementsByTagName("hostdev");
        assertThat(hostdevs.getLength()).isEqualTo(2);
        for (int i = 0; i < 2; i++) {
            Element h = (Element) hostdevs.item(i);
            assertThat(h.getAttribute("managed")).isEqualTo("yes");
            Element address = (Element) h.getElementsByTagName("address").item(0);
            assertThat(address.getAttribute("bus")).isEqualTo("0x81");
            assertThat(address.getAttribute("function")).isEqualTo("0x" + i);
        }
    }
}
