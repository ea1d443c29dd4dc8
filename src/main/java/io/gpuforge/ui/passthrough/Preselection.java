package io.gpuforge.ui.passthrough;

import io.gpuforge.app.host.HostTarget;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.pci.PciAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * What the wizard opens with: the host (a node of a hypervisor connection, a saved SSH host, this computer) and,
 * from a GPU's "Pass through to VM…", the GPU; the wizard then starts at the readiness of that GPU.
 */
public record Preselection(HostTarget host, Optional<ConnectionInfo> connection, Optional<String> node,
                           Optional<PciAddress> gpu) {

    public Preselection {
        Objects.requireNonNull(host);
        Objects.requireNonNull(connection);
        Objects.requireNonNull(node);
        Objects.requireNonNull(gpu);
    }

    /** A node of a hypervisor connection (Proxmox VE, libvirt, the Demo lab), with its GPU when given. */
    public static Preselection node(ConnectionInfo connection, String node, Optional<PciAddress> gpu) {
        return new Preselection(new HostTarget.Linked(connection, node), Optional.of(connection), Optional.of(node), gpu);
    }

    /** A host without a hypervisor connection (a saved SSH host, this computer): no attach step. */
    public static Preselection host(HostTarget host, Optional<PciAddress> gpu) {
        return new Preselection(host, Optional.empty(), Optional.empty(), gpu);
    }
}
