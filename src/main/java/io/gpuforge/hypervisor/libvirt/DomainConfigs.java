package io.gpuforge.hypervisor.libvirt;

import io.gpuforge.domain.BackendException.Kind;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmRef;
import java.util.Map;
import java.util.Optional;
import org.w3c.dom.Element;

/**
 * A domain's configuration read and written with optimistic concurrency. The version is a hash of the
 * inactive XML with its secrets ({@code VIR_DOMAIN_XML_INACTIVE | VIR_DOMAIN_XML_SECURE}), so any change
 * (another tool, another user, a VNC password) makes a write based on the old version a
 * {@link Kind#CONFLICT}. The document handed out is the inactive XML without secrets; edits are made on the
 * secure XML so that nothing (passwords) is lost when the domain is redefined.
 *
 * <p>libvirt has no compare-and-set: a write re-reads, compares and redefines at once, and writes from this
 * process are serialised, which leaves only a short window for another client.
 */
final class DomainConfigs {

    static final int XML_SECURE = 1;
    static final int XML_INACTIVE = 2;

    /** A change to a domain's XML before it is redefined: edits the DOM in place, or returns a new root. */
    @FunctionalInterface
    interface Edit {
        Element apply(Element domain) throws LibvirtBackendException;
    }

    private final LibvirtConnection connection;
    private final Object writes = new Object();

    DomainConfigs(LibvirtConnection connection) {
        this.connection = connection;
    }

    VmConfig read(VmRef vm) throws LibvirtBackendException {
        String[] xml = connection.withDomain(vm.id(), "read the configuration of " + vm.id(),
                d -> new String[] {d.getXMLDesc(XML_INACTIVE | XML_SECURE), d.getXMLDesc(XML_INACTIVE)});
        return new VmConfig(vm, DomainXmlText.version(xml[0]), DomainDetails.parse(xml[1]), Map.of(), xml[1]);
    }

    /** Redefines the domain with {@code edit} applied, if it is still at {@code basedOnVersion}. */
    VmConfig redefine(VmRef vm, String basedOnVersion, Edit edit) throws LibvirtBackendException {
        synchronized (writes) {
            String current = connection.withDomain(vm.id(), "read the configuration of " + vm.id(),
                    d -> d.getXMLDesc(XML_INACTIVE | XML_SECURE));
            if (!DomainXmlText.version(current).equals(basedOnVersion)) {
                throw new LibvirtBackendException(Kind.CONFLICT, vm.id() + " changed since its configuration was read"
                        + " (by another tool or user): nothing was written; read it again and redo the change", null);
            }
            String xml = DomainXmlText.write(edit.apply(Xml.parse(current)));
            connection.call("redefine " + vm.id(), c -> {
                c.domainDefineXML(xml).free();
                return null;
            });
        }
        return read(vm);
    }

    /**
     * Runs {@code edit} on a copy of the domain's inactive XML at {@code basedOnVersion}, as {@link #redefine} would,
     * and defines nothing: what it refuses, the redefine would refuse. Returns the configuration as it is.
     */
    VmConfig tryOn(VmRef vm, String basedOnVersion, Edit edit) throws LibvirtBackendException {
        String current = connection.withDomain(vm.id(), "read the configuration of " + vm.id(),
                d -> d.getXMLDesc(XML_INACTIVE | XML_SECURE));
        if (!DomainXmlText.version(current).equals(basedOnVersion)) {
            throw new LibvirtBackendException(Kind.CONFLICT, vm.id() + " changed since its configuration was read"
                    + " (by another tool or user): read it again and redo the change", null);
        }
        edit.apply(Xml.parse(current));
        return read(vm);
    }

    VmConfig write(VmRef vm, ConfigChange change, String basedOnVersion) throws LibvirtBackendException {
        if (change instanceof ConfigChange.Resources) {
            ConfigChange.Resources r = (ConfigChange.Resources) change;
            Optional<String> rename = r.name().filter(n -> !n.equals(vm.id()));
            if (rename.isPresent()) {
                throw new LibvirtBackendException(Kind.UNSUPPORTED, "libvirt renames a domain only with"
                        + " virDomainRename, which GPUForge cannot call yet: rename it with 'virsh domrename " + vm.id()
                        + " " + rename.get() + "' while it is stopped", null);
            }
            return redefine(vm, basedOnVersion, root -> DomainResources.apply(root, r));
        }
        if (change instanceof ConfigChange.Document) {
            Element replacement = Xml.parse(((ConfigChange.Document) change).xml());
            return redefine(vm, basedOnVersion, root -> DomainResources.replace(vm, root, replacement));
        }
        throw new LibvirtBackendException(Kind.UNSUPPORTED, "libvirt has no Proxmox configuration keys: change the"
                + " domain's resources or its XML", null);
    }
}
