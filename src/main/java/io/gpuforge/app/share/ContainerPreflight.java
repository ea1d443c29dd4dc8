package io.gpuforge.app.share;

import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.share.ContainerSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * What would make Proxmox VE refuse a new container, checked before its GPU's host plan changes anything (its host
 * name is checked as the spec is made): an id no VM or container of the cluster has, the template on the node, a storage for container disks. {@code gpuforge ct create
 * --with-host-plan} runs it first, so a container that cannot be made leaves the host as it was. Reads only.
 */
public final class ContainerPreflight {

    private final ContainerService containers;

    public ContainerPreflight(ContainerService containers) {
        this.containers = containers;
    }

    /** Every reason the container cannot be made on {@code node}, each with what to do; empty when it can. */
    public List<String> problems(ConnectionSession s, String node, ContainerSpec spec) throws BackendException {
        List<String> out = new ArrayList<>();
        String holder = containers.usedIds(s).get(spec.vmid());
        if (holder != null) {
            out.add("id " + spec.vmid() + " is " + holder + ": leave out --vmid, or pick a free one");
        }
        int colon = spec.template().indexOf(':');
        if (colon <= 0) {
            out.add("the template '" + spec.template() + "' names no storage (STORAGE:vztmpl/FILE)");
        } else if (!s.volumes(node, spec.template().substring(0, colon), "vztmpl").contains(spec.template())) {
            out.add("no template " + spec.template() + " on " + node + ": download it first (pveam download "
                    + spec.template().substring(0, colon) + " FILE, or the node's storage page)");
        }
        List<String> disks = containers.diskStorages(s, node);
        if (!disks.contains(spec.storage())) {
            out.add("no storage '" + spec.storage() + "' for container disks on " + node + " (" + (disks.isEmpty()
                    ? "it has none" : "it has " + String.join(", ", disks)) + ")");
        }
        return out;
    }
}
