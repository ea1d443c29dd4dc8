package io.gpuforge.hypervisor.libvirt;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.passthrough.PlanOptions;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.vm.VmSpec;
import io.gpuforge.host.probe.HostProbe;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.passthrough.Planner;
import io.gpuforge.testing.HostTrees;
import io.gpuforge.testing.SharedFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The domain XML builder against real {@code <hostdev>} blocks, and node device XML from real hosts. */
class DomainXmlTest {

    private static PciAddress a(String s) {
        return PciAddress.parse(s);
    }

    @Test
    void realHostdevBlocksRoundTrip() throws Exception {
        String real = new String(SharedFixtures.read("libvirt/01-x399-win10-domain-hostdev.xml"), StandardCharsets.UTF_8);
        List<PciAddress> sources = DomainXmlBuilder.hostdevSources(real);
        assertThat(sources).containsExactly(a("0000:42:00.0"), a("0000:08:00.0"), a("0000:08:00.1"));
        String built = DomainXmlBuilder.build(new VmSpec("win10", 8, 16384, Optional.of("/var/lib/libvirt/images/win10.qcow2"),
                "default", Optional.empty(), sources, true, true));
        assertThat(DomainXmlBuilder.hostdevSources(built)).containsExactlyInAnyOrderElementsOf(sources);
        assertThat(built).contains("<type arch='x86_64' machine='q35'>hvm</type>").contains("<os firmware='efi'>")
                .contains("<feature enabled='no' name='secure-boot'/>").contains("<target dev='vda' bus='virtio'/>")
                .contains("<model type='virtio'/>").contains("managed='yes'");
        // the two functions of 08:00 share one guest slot on their own root port, multifunction on
        assertThat(built).contains("<address type='pci' domain='0x0000' bus='0x0a' slot='0x00' function='0x0'"
                + " multifunction='on'/>").contains("<address type='pci' domain='0x0000' bus='0x0a' slot='0x00' function='0x1'/>");
        assertThat(built).contains("<controller type='pci' model='pcie-root-port' index='10'/>")
                .contains("<controller type='pci' model='pcie-root-port' index='11'/>");
        Xml.parse(built);
    }

    @Test
    void thePlansHostdevsAreTheOnesTheDomainGets(@TempDir Path dir) throws Exception {
        HostFacts f = new HostProbe().probeLocal(Optional.of(HostTrees.intelGrub(dir)));
        PassthroughPlan plan = Planner.plan(f, a("0000:01:00.0"), PlanOptions.defaults());
        PassthroughPlan.VmChange libvirt = plan.vmChanges().get(0);
        assertThat(libvirt.hypervisor()).isEqualTo("libvirt");
        assertThat(DomainXmlBuilder.hostdevSources("<devices>" + libvirt.snippet() + "</devices>"))
                .containsExactlyElementsOf(plan.functions()).containsExactly(a("0000:01:00.0"), a("0000:01:00.1"));
        // the domain built for those functions holds the same <source> blocks, only indented and placed
        String built = DomainXmlBuilder.build(new VmSpec("gpu-vm", 4, 8192, Optional.empty(), "default",
                Optional.empty(), plan.functions(), true, true));
        String unindented = built.lines().map(String::strip).collect(Collectors.joining("\n"));
        String sourceOfAudio = libvirt.snippet().lines().map(String::strip).dropWhile(l -> !l.contains("function='0x1'"))
                .findFirst().orElseThrow();
        assertThat(unindented).contains("<source>\n" + sourceOfAudio + "\n</source>");
        Xml.parse(built);
    }

    @Test
    void cloudInitSeedAndTcg() throws Exception {
        String built = DomainXmlBuilder.build(new VmSpec("ci-vm", 1, 512, Optional.of("/tmp/d.img"), "default",
                Optional.of("/tmp/seed.iso"), List.of(), false, false));
        assertThat(built).startsWith("<domain type='qemu'>").contains("<source file='/tmp/seed.iso'/>")
                .contains("<readonly/>").contains("type='raw'").doesNotContain("hostdev").doesNotContain("firmware='efi'");
    }

    @Test
    void realNodeDevices() throws Exception {
        NodeDeviceXml.Parsed tesla = NodeDeviceXml.parse(new String(SharedFixtures.read(
                "libvirt/02-hpe-dl360g9-teslap10-nodedev-pci_0000_82_00_0.xml"), StandardCharsets.UTF_8)).orElseThrow();
        PciDevice t = tesla.device();
        assertThat(t.address()).isEqualTo(a("0000:82:00.0"));
        assertThat(t.classCode()).isEqualTo("0302");
        assertThat(t.vendorId() + ":" + t.deviceId()).isEqualTo("10de:1b39");
        assertThat(t.driver()).contains("vfio-pci");
        assertThat(t.iommuGroup()).hasValue(79);
        assertThat(t.details().numaNode()).hasValue(1);
        assertThat(tesla.linkCapability()).contains("8 GT/s x16");

        NodeDeviceXml.Parsed rtx = NodeDeviceXml.parse(new String(SharedFixtures.read(
                "libvirt/04-rtx3060lhr-nodedev-pci_0000_01_00_0.xml"), StandardCharsets.UTF_8)).orElseThrow();
        assertThat(rtx.device().iommuGroup()).hasValue(19);
        assertThat(rtx.groupMembers()).containsExactly(a("0000:01:00.0"), a("0000:01:00.1"));
        assertThat(rtx.device().details().linkWidth()).hasValue(8);
        assertThat(rtx.device().name()).contains("NVIDIA Corporation GA106 [GeForce RTX 3060 Lite Hash Rate]");

        assertThat(NodeDeviceXml.parse("<device><name>usb_1</name><capability type='usb_device'/></device>")).isEmpty();
    }
}
