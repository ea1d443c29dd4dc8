package io.gpuforge.hypervisor.libvirt;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.vm.GpuAttachRequest;
import io.gpuforge.domain.vm.GpuAttachResult;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/**
 * A GPU's functions given to real libvirt domains and taken back, checked in the XML libvirt itself keeps
 * (the real QEMU driver validates PCI addresses and controllers; the test driver does not). The card,
 * 0000:41:00.0 and .1, does not exist on this host, so nothing could ever be taken from the host: libvirt
 * accepts it in an inactive configuration and would refuse to start the domain.
 */
class LibvirtDaemonGpuAttachTest {

    private static final List<PciAddress> CARD = List.of(PciAddress.parse("0000:41:00.0"), PciAddress.parse("0000:41:00.1"));
    private final List<String> defined = new ArrayList<>();
    private LibvirtHypervisor h;
    private String host;

    @BeforeEach
    void open() throws Exception {
        LibvirtDaemon.socketOrSkip();
        h = LibvirtHypervisor.open(LibvirtDaemon.URI);
        host = h.inventory().name();
    }

    @AfterEach
    void undefine() throws Exception {
        if (h != null) {
            h.close();
        }
        if (defined.isEmpty()) {
            return; // skipped (no libvirtd) or nothing defined: nothing to connect to for
        }
        try (LibvirtConnection c = LibvirtConnection.open(LibvirtDaemon.URI)) {
            for (String name : defined) {
                if (c.domains().stream().anyMatch(v -> v.name().equals(name))) {
                    c.undefine(name);
                }
            }
        }
    }

    private VmRef define(String prefix, String xmlOrNull) throws Exception {
        String name = prefix + Long.toHexString(System.nanoTime());
        defined.add(name);
        try (LibvirtConnection c = LibvirtConnection.open(LibvirtDaemon.URI)) {
            if (xmlOrNull == null) {
                c.define(new VmSpec(name, 1, 256, Optional.empty(), VmSpec.USER_NETWORK, Optional.empty(), List.of(), true,
                        false));
            } else {
                c.call("define " + name, conn -> {
                    conn.domainDefineXML(xmlOrNull.replace("NAME", name)).free();
                    return null;
                });
            }
        }
        return new VmRef(host, name);
    }

    /** Each {@code <hostdev>} of the XML libvirt keeps: host function → its guest address element. */
    private static List<Element> hostdevs(VmConfig c) throws Exception {
        return Xml.all(Xml.parse(c.document()), "hostdev");
    }

    private static PciAddress guest(Element hostdev) {
        return NodeDeviceXml.address(Xml.children(hostdev, "address").get(0));
    }

    @Test
    void aCardsFunctionsShareOneGuestSlotOnARootPortOfAQ35Domain() throws Exception {
        VmRef vm = define("gf-gpu-q35-", null);
        GpuAttachResult r = h.attachGpu(new GpuAttachRequest(vm, CARD, false, Optional.empty(), Optional.empty(),
                h.readConfig(vm).version()));
        assertThat(r.changes()).anySatisfy(c -> assertThat(c).contains("has no PCI device 0000:41:00.0"));
        assertThat(r.changes()).noneSatisfy(c -> assertThat(c).contains("i440fx"));
        VmConfig after = h.readConfig(vm);
        assertThat(after.details().hostDevices()).containsExactlyElementsOf(CARD);
        List<Element> devs = hostdevs(after);
        assertThat(devs).allSatisfy(d -> assertThat(d.getAttribute("managed")).isEqualTo("yes"));
        PciAddress f0 = guest(devs.get(0));
        PciAddress f1 = guest(devs.get(1));
        assertThat(f1.sameSlot(f0)).as("both functions on one guest slot").isTrue();
        assertThat(List.of(f0.function(), f1.function())).containsExactly(0, 1);
        assertThat(Xml.children(devs.get(0), "address").get(0).getAttribute("multifunction")).isEqualTo("on");
        boolean onRootPort = Xml.all(Xml.parse(after.document()), "controller").stream()
                .anyMatch(c -> "pcie-root-port".equals(c.getAttribute("model"))
                        && Xml.number(c, "index") == f0.bus());
        assertThat(onRootPort).as("the guest bus %d is a PCIe root port", f0.bus()).isTrue();

        GpuAttachResult detached = h.detachGpu(vm, CARD.get(0), after.version());
        assertThat(detached.changes()).hasSize(2);
        assertThat(hostdevs(h.readConfig(vm))).isEmpty();
    }

    @Test
    void anI440fxBiosDomainGetsTheCardOnItsPciBusWithAWarning() throws Exception {
        VmRef vm = define("gf-gpu-pc-", "<domain type='qemu'><name>NAME</name><memory unit='MiB'>256</memory>"
                + "<vcpu>1</vcpu><os><type arch='x86_64' machine='pc'>hvm</type></os>"
                + "<devices><interface type='user'><model type='virtio'/></interface></devices></domain>");
        GpuAttachResult r = h.attachGpu(new GpuAttachRequest(vm, CARD, false, Optional.empty(), Optional.empty(),
                h.readConfig(vm).version()));
        assertThat(r.changes()).anySatisfy(c -> assertThat(c).contains("i440fx").contains("q35"));
        assertThat(r.changes()).anySatisfy(c -> assertThat(c).contains("BIOS").contains("UEFI"));
        List<Element> devs = hostdevs(h.readConfig(vm));
        assertThat(devs).hasSize(2);
        assertThat(guest(devs.get(0)).bus()).isZero();
        assertThat(guest(devs.get(1)).sameSlot(guest(devs.get(0)))).isTrue();
    }
}
