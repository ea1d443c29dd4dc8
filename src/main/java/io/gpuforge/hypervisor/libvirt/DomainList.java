package io.gpuforge.hypervisor.libvirt;

import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.libvirt.Connect;
import org.libvirt.Domain;
import org.libvirt.DomainInfo;
import org.libvirt.Error.ErrorNumber;
import org.libvirt.LibvirtException;

/**
 * The domains of a connection, running and defined, with their details. libvirt lists names and ids first and
 * each domain's details after: a domain that goes away in between (someone undefined or stopped it
 * meanwhile) is left out, not an error.
 */
final class DomainList {

    private DomainList() {
    }

    static List<VmInfo> read(Connect c) throws LibvirtException, LibvirtBackendException {
        String host = c.getHostName();
        Map<String, VmInfo> out = new LinkedHashMap<>();
        for (int id : c.listDomains()) {
            Optional<Domain> d = unlessGone(() -> c.domainLookupByID(id));
            if (d.isPresent()) {
                describe(host, d.get()).ifPresent(v -> out.put(v.name(), v));
            }
        }
        for (String name : c.listDefinedDomains()) {
            Optional<Domain> d = unlessGone(() -> c.domainLookupByName(name));
            if (d.isPresent()) {
                describe(host, d.get()).ifPresent(v -> out.putIfAbsent(v.name(), v));
            }
        }
        return List.copyOf(out.values());
    }

    private static Optional<VmInfo> describe(String host, Domain d) throws LibvirtException, LibvirtBackendException {
        try {
            Optional<DomainInfo> info = unlessGone(d::getInfo);
            Optional<String> xml = unlessGone(() -> d.getXMLDesc(0));
            if (info.isEmpty() || xml.isEmpty()) {
                return Optional.empty();
            }
            String name = d.getName();
            return Optional.of(new VmInfo(new VmRef(host, name), name, state(info.get().state), false,
                    info.get().nrVirtCpu, info.get().maxMem * 1024, Optional.of(DomainDetails.parse(xml.get()))));
        } finally {
            d.free();
        }
    }

    @FunctionalInterface
    private interface Lookup<T> {
        T get() throws LibvirtException;
    }

    /** The value, or empty when libvirt says the domain no longer exists. */
    private static <T> Optional<T> unlessGone(Lookup<T> lookup) throws LibvirtException {
        try {
            return Optional.of(lookup.get());
        } catch (LibvirtException e) {
            if (e.getError() != null && e.getError().getCode() == ErrorNumber.VIR_ERR_NO_DOMAIN) {
                return Optional.empty();
            }
            throw e;
        }
    }

    static VmState state(DomainInfo.DomainState s) {
        switch (s) {
            case VIR_DOMAIN_RUNNING:
            case VIR_DOMAIN_BLOCKED:
                return VmState.RUNNING;
            case VIR_DOMAIN_PAUSED:
                return VmState.PAUSED;
            case VIR_DOMAIN_SHUTDOWN:
            case VIR_DOMAIN_SHUTOFF:
                return VmState.STOPPED;
            case VIR_DOMAIN_CRASHED:
                return VmState.CRASHED;
            default:
                return VmState.UNKNOWN;
        }
    }

}
