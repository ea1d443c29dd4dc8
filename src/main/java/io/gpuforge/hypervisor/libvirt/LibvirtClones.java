package io.gpuforge.hypervisor.libvirt;

import io.gpuforge.domain.BackendException.Kind;
import io.gpuforge.domain.vm.CloneRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.libvirt.Connect;
import org.libvirt.Domain;
import org.libvirt.Error.ErrorNumber;
import org.libvirt.LibvirtException;
import org.libvirt.StoragePool;
import org.libvirt.StorageVol;
import org.w3c.dom.Element;

/**
 * A full clone of a shut-off domain, as {@code virt-clone} makes one: every writable disk copied by libvirt into a
 * new volume ({@code virStorageVolCreateXMLFrom}, so it works the same on a remote host), in the request's pool or
 * the source disk's own; a new name, UUID, MAC addresses and UEFI variable store; read-only and shared disks (an
 * installer ISO, a cloud-init seed) used by both. libvirt has no template VMs whose disks never change, so a
 * linked clone (a qcow2 on top of the source's disk) is refused: the source booting again would corrupt the clone.
 * The volumes made are removed again when a later step fails.
 */
final class LibvirtClones {

    private final LibvirtConnection connection;

    LibvirtClones(LibvirtConnection connection) {
        this.connection = connection;
    }

    /** One writable disk of the source and the volume it is copied to. */
    private record Copy(Element source, StorageVol from, String fromPath, String pool, String name) {
    }

    /** Clones {@code source} as the request says; what was done, a line each. */
    List<String> clone(String source, CloneRequest r) throws LibvirtBackendException {
        if (!r.full()) {
            throw new LibvirtBackendException(Kind.INVALID, "libvirt has no template VMs whose disks stay unchanged,"
                    + " so a linked clone of " + source + " would break when " + source + " runs again: make a full"
                    + " clone", null);
        }
        return connection.call("clone " + source + " as " + r.name(), c -> {
            if (exists(c, r.name())) {
                throw new LibvirtBackendException(Kind.INVALID, "A VM named " + r.name() + " exists on this host"
                        + " already: pick another name", null);
            }
            Element root;
            Domain d = c.domainLookupByName(source);
            try {
                if (d.isActive() == 1) {
                    throw new LibvirtBackendException(Kind.INVALID, source + " is running: shut it down before cloning"
                            + " it (the disks of a running VM cannot be copied consistently)", null);
                }
                root = Xml.parse(d.getXMLDesc(DomainConfigs.XML_INACTIVE | DomainConfigs.XML_SECURE));
            } finally {
                d.free();
            }
            List<String> log = new ArrayList<>();
            List<Copy> copies = plan(c, root, r, log);
            List<StorageVol> made = new ArrayList<>();
            try {
                for (Copy k : copies) {
                    made.add(copy(c, k, log));
                }
                renamed(root, r.name(), log);
                c.domainDefineXML(DomainXmlText.write(root)).free();
                log.add(r.name() + " was defined as a full clone of " + source);
                return log;
            } catch (LibvirtException | LibvirtBackendException | RuntimeException e) {
                for (StorageVol v : made) {
                    try {
                        v.delete(0);
                    } catch (LibvirtException gone) {
                        // the first failure is the one to report
                    }
                }
                throw e;
            } finally {
                for (Copy k : copies) {
                    k.from().free();
                }
                for (StorageVol v : made) {
                    v.free();
                }
            }
        });
    }

    /** The writable disks and where each goes; a disk that is no volume of a pool is refused, naming it. */
    private static List<Copy> plan(Connect c, Element root, CloneRequest r, List<String> log)
            throws LibvirtException, LibvirtBackendException {
        List<Copy> out = new ArrayList<>();
        List<String> shared = new ArrayList<>();
        int n = 0;
        for (Element disk : Xml.all(root, "disk")) {
            Optional<Element> src = Xml.child(disk, "source");
            String device = disk.getAttribute("device");
            boolean readOnly = Xml.child(disk, "readonly").isPresent() || Xml.child(disk, "shareable").isPresent()
                    || !(device.isEmpty() || device.equals("disk"));
            if (src.isEmpty()) {
                continue;
            }
            String path = src.get().getAttribute("file");
            if (readOnly) {
                shared.add(path.isEmpty() ? src.get().getAttribute("volume") : path);
                continue;
            }
            StorageVol vol = volume(c, disk, src.get(), r);
            String fromPath = vol.getPath();
            StoragePool own = vol.storagePoolLookupByVolume();
            String pool;
            try {
                pool = r.storage().orElse(own.getName());
            } finally {
                own.free();
            }
            String ext = fromPath.contains(".") ? fromPath.substring(fromPath.lastIndexOf('.')) : "";
            out.add(new Copy(disk, vol, fromPath, pool, r.name() + "-disk" + n++ + (ext.length() <= 6 ? ext : "")));
        }
        if (!shared.isEmpty()) {
            log.add("shared with the source, not copied (read-only): " + String.join(", ", shared));
        }
        return out;
    }

    private static StorageVol volume(Connect c, Element disk, Element src, CloneRequest r)
            throws LibvirtBackendException {
        String type = disk.getAttribute("type");
        try {
            if ("volume".equals(type)) {
                StoragePool p = c.storagePoolLookupByName(src.getAttribute("pool"));
                try {
                    return p.storageVolLookupByName(src.getAttribute("volume"));
                } finally {
                    p.free();
                }
            }
            if ("file".equals(type) || "block".equals(type)) {
                return c.storageVolLookupByPath(src.getAttribute("file").isEmpty() ? src.getAttribute("dev")
                        : src.getAttribute("file"));
            }
        } catch (LibvirtException e) {
            // below: not a volume of any pool
        }
        String what = src.getAttribute("file").isEmpty() ? src.getAttribute("dev") : src.getAttribute("file");
        throw new LibvirtBackendException(Kind.INVALID, "The disk " + (what.isEmpty() ? type : what) + " is not a volume"
                + " of a storage pool on this host, so GPUForge cannot copy it for " + r.name() + " through libvirt:"
                + " put its directory into a pool (virsh pool-define-as NAME dir --target DIR) or copy it yourself",
                null);
    }

    /** The copy through libvirt, in the source's format; the disk element is pointed at it. */
    private static StorageVol copy(Connect c, Copy k, List<String> log) throws LibvirtException, LibvirtBackendException {
        Element vx = Xml.parse(k.from().getXMLDesc(0));
        String format = Xml.child(vx, "target").flatMap(t -> Xml.child(t, "format")).map(f -> f.getAttribute("type"))
                .filter(f -> !f.isEmpty()).orElse("raw");
        String capacity = Xml.text(vx, "capacity").orElse("0");
        String xml = "<volume>\n  <name>" + DomainXmlBuilder.escape(k.name()) + "</name>\n  <capacity unit='bytes'>"
                + capacity + "</capacity>\n  <target>\n    <format type='" + DomainXmlBuilder.escape(format)
                + "'/>\n  </target>\n</volume>\n";
        StoragePool p = c.storagePoolLookupByName(k.pool());
        StorageVol made;
        try {
            made = p.storageVolCreateXMLFrom(xml, k.from(), 0);
        } finally {
            p.free();
        }
        Element src = Xml.child(k.source(), "source").orElseThrow();
        if ("volume".equals(k.source().getAttribute("type"))) {
            src.setAttribute("pool", k.pool());
            src.setAttribute("volume", k.name());
        } else {
            src.removeAttribute("dev");
            k.source().setAttribute("type", "file");
            src.setAttribute("file", made.getPath());
        }
        Xml.child(k.source(), "driver").ifPresent(drv -> drv.setAttribute("type", format));
        log.add("disk " + k.fromPath() + " copied to " + made.getPath() + " (pool " + k.pool() + ", " + format + ", "
                + (Long.parseLong(capacity) >> 20) + " MiB)");
        return made;
    }

    /** A new name; libvirt makes a new UUID, MAC addresses and UEFI variable store for what is left out. */
    private static void renamed(Element root, String name, List<String> log) {
        Xml.child(root, "name").orElseThrow().setTextContent(name);
        Xml.child(root, "uuid").ifPresent(u -> root.removeChild(u));
        int macs = 0;
        for (Element mac : Xml.all(root, "mac")) {
            if (mac.getParentNode() instanceof Element p && "interface".equals(p.getTagName())) {
                p.removeChild(mac);
                macs++;
            }
        }
        Xml.child(root, "os").flatMap(os -> Xml.child(os, "nvram")).ifPresent(nv -> {
            nv.getParentNode().removeChild(nv);
            log.add("a new UEFI variable store (the source's is not shared)");
        });
        if (macs > 0) {
            log.add(macs + " network interface(s) with new MAC addresses");
        }
        List<String> pci = new ArrayList<>();
        for (Element h : Xml.all(root, "hostdev")) {
            if ("pci".equals(h.getAttribute("type"))) {
                pci.add(Xml.all(h, "address").stream().findFirst().map(a -> a.getAttribute("bus") + ":"
                        + a.getAttribute("slot") + "." + a.getAttribute("function")).orElse("?"));
            }
        }
        if (!pci.isEmpty()) {
            log.add("the clone has the source's PCI devices too (" + String.join(", ", pci) + "): only one of the"
                    + " two can run at a time");
        }
    }

    /** Whether the host has a domain of that name (its lookup says "no domain" when not). */
    static boolean exists(Connect c, String name) throws LibvirtException {
        try {
            c.domainLookupByName(name).free();
            return true;
        } catch (LibvirtException e) {
            if (e.getError() != null && e.getError().getCode() == ErrorNumber.VIR_ERR_NO_DOMAIN) {
                return false;
            }
            throw e;
        }
    }
}
