package io.gpuforge.app.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.diagnose.VmFix;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.domain.vm.Firmware;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmDetails;
import io.gpuforge.domain.vm.VmRef;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The VM side of each cause's fix, on a Proxmox VE configuration and a libvirt domain as their tools write them. */
class VmFixesTest {

    private static final VmRef VM = new VmRef("pve1", "101");
    private static final VmDetails DETAILS = new VmDetails(Optional.empty(), Firmware.UEFI, 1, 8, 32L << 30,
            List.of(), List.of(), List.of(), List.of(), Optional.empty(), Optional.empty(), Optional.empty());

    private static VmFix pve(String cause, Map<String, String> settings) throws Exception {
        return VmFixes.of(ConnectionInfo.Kind.PROXMOX, cause, new VmConfig(VM, "d1", DETAILS, settings, ""), List.of());
    }

    private static Map<String, Optional<String>> keys(Optional<ConfigChange> c) {
        return ((ConfigChange.Settings) c.orElseThrow()).keys();
    }

    @Test
    void proxmoxKeysChangeOnlyWhatIsNotSoAlreadyAndKeepTheEarlierValues() throws Exception {
        VmFix dma = pve("dma-map-failed", Map.of("balloon", "16384", "hotplug", "disk,network,usb,memory,cpu",
                "memory", "65536", "numa", "1"));
        assertThat(keys(dma.change())).containsEntry("balloon", Optional.of("0"))
                .containsEntry("hotplug", Optional.of("disk,network,usb,cpu"));
        assertThat(keys(dma.undo())).containsEntry("balloon", Optional.of("16384"))
                .containsEntry("hotplug", Optional.of("disk,network,usb,memory,cpu"));
        assertThat(io.gpuforge.testing.English.english(dma.notDone())).anyMatch(n -> n.startsWith("Hugepages"));
        assertThat(dma.diff()).startsWith("--- a/etc/pve/qemu-server/101.conf").contains("-balloon: 16384").contains("+balloon: 0").contains(" memory: 65536");

        assertThat(keys(pve("hypervisor-visible-to-driver", Map.of("cpu", "host,flags=+pcid")).change()))
                .containsExactly(Map.entry("cpu", Optional.of("host,flags=+pcid,hidden=1")));
        assertThat(pve("hypervisor-visible-to-driver", Map.of("cpu", "host,hidden=1")).changesNothing()).isTrue();
        VmFix noCpu = pve("hypervisor-visible-to-driver", Map.of());
        assertThat(keys(noCpu.undo())).containsExactly(Map.entry("cpu", Optional.empty()));

        VmFix mmio = pve("mmio-window-too-small", Map.of("args", "-cpu host,kvm=off"));
        assertThat(keys(mmio.change())).containsExactly(Map.entry("args",
                Optional.of("-cpu host,kvm=off -fw_cfg opt/ovmf/X-PciMmio64Mb,string=65536")));
        assertThat(io.gpuforge.testing.English.english(mmio.notDone())).anyMatch(n -> n.contains("root@pam"));

        VmFix irq = pve("no-interrupt", Map.of("machine", "pc-i440fx-8.1", "hostpci0", "0000:01:00,x-vga=1",
                "hostpci1", "0000:02:00,pcie=1"));
        assertThat(keys(irq.change())).containsEntry("machine", Optional.of("q35"))
                .containsEntry("hostpci0", Optional.of("0000:01:00,x-vga=1,pcie=1")).doesNotContainKey("hostpci1");
        assertThat(pve("no-interrupt", Map.of("machine", "pc-q35-8.1")).changesNothing()).isTrue();

        VmFix split = pve("group-split", Map.of("hostpci0", "0000:01:00.0,pcie=1", "hostpci1", "0000:01:00.1",
                "hostpci2", "0000:03:00.0"));
        assertThat(keys(split.change())).containsEntry("hostpci0", Optional.of("0000:01:00,pcie=1"))
                .containsEntry("hostpci1", Optional.empty()).doesNotContainKey("hostpci2");
        assertThat(keys(split.undo())).containsEntry("hostpci1", Optional.of("0000:01:00.1"));

        VmFix vga = pve("vga-slot-conflict", Map.of("vga", "std,memory=32"));
        assertThat(keys(vga.change())).containsExactly(Map.entry("vga", Optional.of("none")));
        assertThat(pve("vga-slot-conflict", Map.of("vga", "none")).changesNothing()).isTrue();
        assertThat(pve("reset-bug", Map.of()).changesNothing()).as("a host-only cause").isTrue();
    }

    private static final String DOMAIN = """
            <domain type='kvm'>
              <name>win11</name>
              <uuid>6f4c3e36-52d3-4c2c-9b0d-6c3b3f1b2a11</uuid>
              <memory unit='KiB'>33554432</memory>
              <os>
                <type arch='x86_64' machine='pc-q35-8.2'>hvm</type>
              </os>
              <features>
                <acpi/>
                <apic/>
              </features>
              <devices>
                <video>
                  <model type='qxl' ram='65536' vram='65536' vgamem='16384' heads='1' primary='yes'/>
                  <address type='pci' domain='0x0000' bus='0x00' slot='0x01' function='0x0'/>
                </video>
                <memballoon model='virtio'>
                  <address type='pci' domain='0x0000' bus='0x05' slot='0x00' function='0x0'/>
                </memballoon>
              </devices>
            </domain>
            """;

    private static VmFix domain(String cause) throws Exception {
        return VmFixes.of(ConnectionInfo.Kind.LIBVIRT, cause, new VmConfig(new VmRef("host", "win11"), "v1", DETAILS,
                Map.of(), DOMAIN), List.of(new io.gpuforge.domain.diagnose.FixPlan.VmEdit("libvirt", io.gpuforge.domain.message.Message.of("change.pcie"),
                "<type machine='q35'>hvm</type>")));
    }

    private static String xml(Optional<ConfigChange> c) {
        return ((ConfigChange.Document) c.orElseThrow()).xml();
    }

    @Test
    void aLibvirtDomainGetsItsElementsChangedAndTheUndoIsTheDocumentAsRead() throws Exception {
        VmFix vga = domain("vga-slot-conflict");
        assertThat(xml(vga.change())).contains("<model type=\"none\"/>").doesNotContain("qxl")
                .doesNotContain("slot=\"0x01\"").contains("<name>win11</name>");
        assertThat(xml(vga.undo())).isEqualTo(DOMAIN);
        assertThat(vga.diff()).startsWith("--- a/etc/libvirt/qemu/win11.xml\n+++ b/etc/libvirt/qemu/win11.xml")
                .containsPattern("\n-\\s*<model [^\n]*type=\"qxl\"").contains("+    <video><model type=\"none\"/></video>")
                .doesNotContain("-  <name>");

        assertThat(xml(domain("dma-map-failed").change())).contains("<memballoon model=\"none\"/>");
        assertThat(xml(domain("hypervisor-visible-to-driver").change()))
                .contains("<kvm><hidden state=\"on\"/></kvm>");

        VmFix irq = domain("no-interrupt");
        assertThat(irq.changesNothing()).isTrue();
        assertThat(io.gpuforge.testing.English.english(irq.notDone())).singleElement().asString().contains("by hand (virsh edit win11)")
                .contains("<type machine='q35'>hvm</type>");
    }
}
