package io.gpuforge.hypervisor.libvirt;

import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.Firmware;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.VmDetails;
import io.gpuforge.domain.vm.VmDisk;
import io.gpuforge.domain.vm.VmNic;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.w3c.dom.Element;

/** A libvirt domain XML read into {@link VmDetails}: machine, firmware, CPUs, memory, disks, NICs, host devices. */
final class DomainDetails {

    private DomainDetails() {
    }

    static VmDetails parse(String xml) throws LibvirtBackendException {
        try {
            return read(Xml.parse(xml), xml);
        } catch (Xml.Malformed e) {
            throw new LibvirtBackendException(BackendException.Kind.PROTOCOL, "libvirt returned a domain XML GPUForge"
                    + " cannot read: " + e.getMessage(), e);
        }
    }

    private static VmDetails read(Element root, String xml) throws LibvirtBackendException {
        Optional<Element> os = Xml.child(root, "os");
        Optional<String> machine = os.flatMap(o -> Xml.child(o, "type")).map(t -> t.getAttribute("machine"))
                .filter(m -> !m.isEmpty());
        boolean efi = os.map(o -> "efi".equals(o.getAttribute("firmware")) || Xml.child(o, "loader").isPresent())
                .orElse(false);
        int vcpus = Xml.child(root, "vcpu").map(v -> Xml.number(v.getTextContent(), "<vcpu>")).orElse(1);
        long memory = Xml.child(root, "memory").map(DomainDetails::bytes).orElse(0L);
        List<PciAddress> hostdevs = DomainXmlBuilder.hostdevSources(xml);
        boolean agent = Xml.all(root, "channel").stream().anyMatch(c -> Xml.child(c, "target")
                .map(t -> "org.qemu.guest_agent.0".equals(t.getAttribute("name"))).orElse(false));
        Optional<Boolean> balloon = Xml.all(root, "memballoon").stream().findFirst()
                .map(b -> !"none".equals(b.getAttribute("model")));
        return new VmDetails(machine, efi ? Firmware.UEFI : Firmware.BIOS, 1, vcpus, memory, disks(root), nics(root),
                hostdevs, List.of(), balloon, Optional.of(agent), Optional.empty());
    }

    private static long bytes(Element memory) {
        long n = Xml.decimal(memory.getTextContent(), "<memory>");
        String unit = memory.getAttribute("unit").isEmpty() ? "KiB" : memory.getAttribute("unit");
        try {
            switch (unit) {
                case "b":
                case "bytes":
                    return n;
                case "KB":
                    return Math.multiplyExact(n, 1000L);
                case "MB":
                    return Math.multiplyExact(n, 1000_000L);
                case "GB":
                    return Math.multiplyExact(n, 1000_000_000L);
                case "M":
                case "MiB":
                    return Math.multiplyExact(n, 1L << 20);
                case "G":
                case "GiB":
                    return Math.multiplyExact(n, 1L << 30);
                default:
                    return Math.multiplyExact(n, 1L << 10);
            }
        } catch (ArithmeticException e) {
            throw new Xml.Malformed("<memory unit='" + Xml.clip(unit) + "'> of " + Xml.clip(memory.getTextContent())
                    + " is more than any machine has");
        }
    }

    static List<VmDisk> disks(Element domain) {
        List<VmDisk> out = new ArrayList<>();
        for (Element disk : Xml.all(domain, "disk")) {
            String target = Xml.child(disk, "target").map(t -> t.getAttribute("dev")).orElse("?");
            String source = Xml.child(disk, "source").map(src -> {
                for (String a : new String[] {"file", "dev", "volume", "name"}) {
                    if (!src.getAttribute(a).isEmpty()) {
                        return src.getAttribute(a);
                    }
                }
                return "";
            }).orElse("");
            out.add(new VmDisk(target, source, OptionalLong.empty(), "cdrom".equals(disk.getAttribute("device"))));
        }
        return out;
    }

    static List<VmNic> nics(Element domain) {
        List<VmNic> out = new ArrayList<>();
        int i = 0;
        for (Element nic : Xml.all(domain, "interface")) {
            String model = Xml.child(nic, "model").map(m -> m.getAttribute("type")).orElse("");
            String mac = Xml.child(nic, "mac").map(m -> m.getAttribute("address")).orElse("");
            String src = Xml.child(nic, "source").map(x -> !x.getAttribute("network").isEmpty()
                    ? "network " + x.getAttribute("network") : !x.getAttribute("bridge").isEmpty()
                    ? "bridge " + x.getAttribute("bridge") : nic.getAttribute("type")).orElse(nic.getAttribute("type"));
            out.add(new VmNic("net" + i++, model, mac, src));
        }
        return out;
    }
}
