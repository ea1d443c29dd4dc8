package io.gpuforge.hypervisor.libvirt;

import io.gpuforge.domain.vm.LibvirtHostdev;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.VmSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.w3c.dom.Element;

/**
 * Builds libvirt domain XML from a {@link VmSpec}: q35, OVMF with secure boot off (when UEFI), the CPU (host
 * passthrough for {@code host} under KVM, else the named model), virtio disk and NIC, a cloud-init seed and the
 * spec's ISOs as CD-ROMs, a TPM 2.0 (swtpm emulator), the guest agent channel, a VNC display on the host's
 * loopback (for virt-viewer), and a managed {@code <hostdev>} for every passed-through function.
 * The functions of one card share a guest slot on their own PCIe root port, multifunction on.
 */
public final class DomainXmlBuilder {

    static final int FIRST_ROOT_PORT = 10;

    private DomainXmlBuilder() {
    }

    public static String build(VmSpec s) {
        StringBuilder x = new StringBuilder();
        x.append("<domain type='").append(s.accelerated() ? "kvm" : "qemu").append("'>\n");
        x.append("  <name>").append(escape(s.name())).append("</name>\n");
        x.append("  <memory unit='MiB'>").append(s.memoryMiB()).append("</memory>\n");
        x.append("  <vcpu>").append(s.vcpus()).append("</vcpu>\n");
        x.append(s.uefi() ? "  <os firmware='efi'>\n" : "  <os>\n");
        x.append("    <type arch='x86_64' machine='q35'>hvm</type>\n");
        if (s.uefi()) {
            x.append("    <firmware>\n      <feature enabled='no' name='secure-boot'/>\n    </firmware>\n");
        }
        x.append("  </os>\n  <features>\n    <acpi/>\n    <apic/>\n  </features>\n");
        String cpu = s.options().cpuType();
        if (cpu.equals("host")) {
            x.append(s.accelerated() ? "  <cpu mode='host-passthrough'/>\n" : "");
        } else {
            x.append("  <cpu mode='custom' match='exact'>\n    <model fallback='forbid'>").append(escape(cpu))
                    .append("</model>\n  </cpu>\n");
        }
        x.append("  <devices>\n");
        s.diskPath().ifPresent(d -> x.append("    <disk type='file' device='disk'>\n      <driver name='qemu' type='")
                .append(d.endsWith(".raw") || d.endsWith(".img") ? "raw" : "qcow2").append("'/>\n      <source file='")
                .append(escape(d)).append("'/>\n      <target dev='vda' bus='virtio'/>\n    </disk>\n"));
        s.cloudInitSeed().ifPresent(seed -> x.append("    <disk type='file' device='cdrom'>\n      <driver name='qemu'"
                + " type='raw'/>\n      <source file='").append(escape(seed)).append("'/>\n      <target dev='sda' bus='sata'/>\n"
                + "      <readonly/>\n    </disk>\n"));
        char cd = 'b';
        for (String iso : s.options().isos()) {
            x.append("    <disk type='file' device='cdrom'>\n      <driver name='qemu' type='raw'/>\n      <source file='")
                    .append(escape(iso)).append("'/>\n      <target dev='sd").append(cd++).append("' bus='sata'/>\n"
                    + "      <readonly/>\n    </disk>\n");
        }
        if (s.network().equals(VmSpec.USER_NETWORK)) {
            x.append("    <interface type='user'>\n      <model type='virtio'/>\n    </interface>\n");
        } else {
            x.append("    <interface type='network'>\n      <source network='").append(escape(s.network()))
                    .append("'/>\n      <model type='virtio'/>\n    </interface>\n");
        }
        x.append("    <console type='pty'/>\n");
        if (s.options().agent()) {
            x.append("    <channel type='unix'>\n      <target type='virtio' name='org.qemu.guest_agent.0'/>\n"
                    + "    </channel>\n");
        }
        if (s.options().tpm()) {
            x.append("    <tpm model='tpm-crb'>\n      <backend type='emulator' version='2.0'/>\n    </tpm>\n");
        }
        x.append("    <graphics type='vnc' autoport='yes' listen='127.0.0.1'/>\n");
        Map<String, List<PciAddress>> cards = new LinkedHashMap<>();
        for (PciAddress a : s.hostDevices()) {
            cards.computeIfAbsent(a.slotAddress(), k -> new ArrayList<>()).add(a);
        }
        int port = FIRST_ROOT_PORT;
        for (List<PciAddress> functions : cards.values()) {
            x.append("    <controller type='pci' model='pcie-root-port' index='").append(port).append("'/>\n");
            boolean multi = functions.size() > 1;
            int first = functions.get(0).function();
            for (PciAddress a : functions) {
                x.append(LibvirtHostdev.of(a).at(new PciAddress(0, port, 0, a.function()), multi && a.function() == first)
                        .xml("    "));
            }
            port++;
        }
        x.append("  </devices>\n</domain>\n");
        return x.toString();
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&apos;").replace("\"", "&quot;");
    }

    /** The host functions of every {@code <hostdev type='pci'>} in a domain (or devices) XML. */
    public static List<PciAddress> hostdevSources(String xml) throws LibvirtBackendException {
        List<PciAddress> out = new ArrayList<>();
        for (Element h : Xml.all(Xml.parse(xml), "hostdev")) {
            if (!"pci".equals(h.getAttribute("type"))) {
                continue;
            }
            try {
                Xml.child(h, "source").flatMap(src -> Xml.child(src, "address")).map(NodeDeviceXml::address)
                        .ifPresent(out::add);
            } catch (Xml.Malformed e) {
                throw new LibvirtBackendException(io.gpuforge.domain.BackendException.Kind.PROTOCOL, "A <hostdev> of"
                        + " the domain XML cannot be read: " + e.getMessage(), e);
            }
        }
        return out;
    }
}
