package io.gpuforge.cli.passthrough;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.HypervisorTarget;

/**
 * Which VM, on which hypervisor, a GPU goes to or comes from: {@code --device BDF --vm ID|NAME} on the hypervisor
 * {@link HypervisorTarget} names ({@code --connection NAME | --pve URL | --libvirt URI}, {@code --node} optional).
 */
final class VmOptions {

    @Option(names = "--device", required = true, paramLabel = "BDF", description = "The GPU (any function of the card).")
    String device;

    @Option(names = "--vm", required = true, paramLabel = "ID|NAME", description = "The VM: its id (VMID, domain name)"
            + " or its name.")
    String vm;

    /** The VM's hypervisor: {@code --connection NAME | --pve URL | --libvirt URI}, {@code --node}. */
    @Mixin
    HypervisorTarget hypervisor = new HypervisorTarget();

    /** An open hypervisor session and what it is, closed (and the context with it) when done. */
    static final class Opened implements AutoCloseable {
        final ConnectionSession session;
        final Optional<AppContext> context;
        final Optional<ConnectionInfo> saved;
        final String describe;

        Opened(ConnectionSession session, Optional<AppContext> context, Optional<ConnectionInfo> saved, String describe) {
            this.session = session;
            this.context = context;
            this.saved = saved;
            this.describe = describe;
        }

        @Override
        public void close() {
            if (context.isEmpty()) {
                session.close();
            }
            context.ifPresent(AppContext::close);
        }
    }

    PciAddress device() {
        return PciAddress.parse(device);
    }

    /** The hypervisor the options name; exactly one of --pve, --libvirt, --connection (usage error otherwise). */
    Opened open(CliServices services) throws IOException {
        if (!hypervisor.present()) {
            throw new IllegalArgumentException("name the VM's hypervisor with exactly one of --connection NAME,"
                    + " --pve URL or --libvirt URI");
        }
        AppContext ctx = services.openContext();
        try {
            ConnectionInfo c = hypervisor.connection(services, ctx);
            if (!ctx.sessions().isHypervisor(c.kind())) {
                throw new IllegalArgumentException(c.name() + " is an SSH host, not a hypervisor with VMs");
            }
            // a connection named on the spot has no saved host links
            return new Opened(ctx.sessions().of(c), Optional.of(ctx), c.saved() ? Optional.of(c) : Optional.empty(),
                    hypervisor.describe());
        } catch (IOException | RuntimeException e) {
            ctx.close();
            throw e;
        }
    }

    /** The VM by id or name (on --node when given; a libvirt host's one node otherwise). */
    VmRef vm(ConnectionSession s) throws BackendException {
        if (hypervisor.node != null) {
            io.gpuforge.cli.common.HypervisorTarget.requireNode(s, hypervisor.node);
        }
        List<VmInfo> vms = s.inventory().vms();
        List<VmInfo> matching = vms.stream().filter(v -> !v.template() && (hypervisor.node == null || v.ref().node().equals(hypervisor.node))
                && (v.ref().id().equals(vm) || v.name().equals(vm))).toList();
        if (matching.isEmpty()) {
            throw new BackendException(BackendException.Kind.NOT_FOUND, "no VM '" + vm + "'"
                    + (hypervisor.node == null ? "" : " on " + hypervisor.node) + " on " + s.connection().name());
        }
        if (matching.size() > 1) {
            throw new BackendException(BackendException.Kind.INVALID, "'" + vm + "' names " + matching.size()
                    + " VMs; give its id, or --node");
        }
        return matching.get(0).ref();
    }
}
