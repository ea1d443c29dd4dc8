package io.gpuforge.hypervisor.libvirt;

import io.gpuforge.domain.BackendException.Kind;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.domain.vm.VmRef;
import java.util.Optional;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Edits of a domain XML: CPUs and memory ({@code <vcpu>}, {@code <cpu><topology>}, {@code <memory>},
 * {@code <currentMemory>}), and a whole new document checked to be for the same domain.
 */
final class DomainResources {

    private DomainResources() {
    }

    static Element apply(Element domain, ConfigChange.Resources r) throws LibvirtBackendException {
        if (r.cores().isPresent()) {
            vcpus(domain, r.cores().getAsInt());
        }
        if (r.memoryMiB().isPresent()) {
            memory(domain, r.memoryMiB().getAsLong());
        }
        return domain;
    }

    private static void vcpus(Element domain, int n) throws LibvirtBackendException {
        if (n < 1) {
            throw new LibvirtBackendException(Kind.INVALID, "a VM needs at least one virtual CPU, not " + n, null);
        }
        Element vcpu = childOrNew(domain, "vcpu", "memory");
        vcpu.setTextContent(Integer.toString(n));
        vcpu.removeAttribute("current"); // every CPU online
        Xml.child(domain, "vcpus").ifPresent(domain::removeChild); // per-CPU settings for the old count
        Optional<Element> topology = Xml.child(domain, "cpu").flatMap(c -> Xml.child(c, "topology"));
        if (topology.isPresent()) {
            Element t = topology.get();
            int sockets = positive(t.getAttribute("sockets"));
            int threads = positive(t.getAttribute("threads"));
            int others = positive(t.getAttribute("dies")) * positive(t.getAttribute("clusters"));
            if (n % (sockets * threads * others) == 0) {
                t.setAttribute("cores", Integer.toString(n / (sockets * threads * others)));
            } else {
                // the old layout does not divide the new count: one socket, one core per CPU
                for (String a : new String[] {"sockets", "dies", "clusters", "threads"}) {
                    if (t.hasAttribute(a)) {
                        t.setAttribute(a, "1");
                    }
                }
                t.setAttribute("cores", Integer.toString(n));
            }
        }
    }

    private static void memory(Element domain, long mib) throws LibvirtBackendException {
        if (mib < 64) {
            throw new LibvirtBackendException(Kind.INVALID, "a VM needs at least 64 MiB of memory, not " + mib + " MiB", null);
        }
        boolean numa = Xml.child(domain, "cpu").flatMap(c -> Xml.child(c, "numa")).isPresent();
        if (numa) {
            throw new LibvirtBackendException(Kind.INVALID, "the memory of " + Xml.text(domain, "name").orElse("this VM")
                    + " is set per NUMA cell (<cpu><numa>): change the cells in its XML instead", null);
        }
        String kib = Long.toString(mib * 1024);
        Element memory = childOrNew(domain, "memory", "name");
        memory.setAttribute("unit", "KiB");
        memory.setTextContent(kib);
        Element current = childOrNew(domain, "currentMemory", "memory");
        current.setAttribute("unit", "KiB");
        current.setTextContent(kib);
    }

    /** {@code replacement} as the new domain XML, if it is the same domain (name, UUID). */
    static Element replace(VmRef vm, Element current, Element replacement) throws LibvirtBackendException {
        if (!"domain".equals(replacement.getTagName())) {
            throw new LibvirtBackendException(Kind.INVALID, "a domain XML starts with <domain>, not <"
                    + replacement.getTagName() + ">", null);
        }
        String name = Xml.text(replacement, "name").orElse("");
        if (!name.equals(vm.id())) {
            throw new LibvirtBackendException(Kind.INVALID, "the XML is for the domain '" + name + "', not '" + vm.id()
                    + "': a document cannot rename or replace another domain", null);
        }
        Optional<String> uuid = Xml.text(current, "uuid");
        Optional<String> given = Xml.text(replacement, "uuid");
        if (given.isPresent() && uuid.isPresent() && !given.get().equalsIgnoreCase(uuid.get())) {
            throw new LibvirtBackendException(Kind.INVALID, "the XML has the UUID " + given.get() + " but " + vm.id()
                    + " has " + uuid.get() + ": keep the UUID", null);
        }
        if (given.isEmpty() && uuid.isPresent()) {
            Element u = replacement.getOwnerDocument().createElement("uuid");
            u.setTextContent(uuid.get());
            insertAfter(replacement, u, Xml.child(replacement, "name").orElseThrow());
        }
        return replacement;
    }

    private static Element childOrNew(Element parent, String name, String after) {
        Optional<Element> e = Xml.child(parent, name);
        if (e.isPresent()) {
            return e.get();
        }
        Document doc = parent.getOwnerDocument();
        Element created = doc.createElement(name);
        Optional<Element> anchor = Xml.child(parent, after);
        if (anchor.isPresent()) {
            insertAfter(parent, created, anchor.get());
        } else {
            parent.appendChild(created);
        }
        return created;
    }

    private static void insertAfter(Element parent, Node node, Node anchor) {
        parent.insertBefore(node, anchor.getNextSibling());
    }

    private static int positive(String attribute) {
        try {
            return Math.max(1, Integer.parseInt(attribute.strip()));
        } catch (NumberFormatException e) {
            return 1;
        }
    }
}
