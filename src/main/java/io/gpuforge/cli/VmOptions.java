package io.gpuforge.cli;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.ConnectionSession;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.ConnectionInfo;
import io.gpuforge.domain.PciAddress;
import io.gpuforge.domain.VmInfo;
import io.gpuforge.domain.VmRef;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Which VM, on which hypervisor, a GPU goes to or comes from: {@code --device BDF --vm ID|NAME} with
 * {@code --pve URL --node N} (API token from GPUFORGE_PVE_TOKEN), {@code --libvirt URI} or {@code --connection NAME}
 * (a saved connection, the Demo lab included; {@code --node} optional there).
 */
final class VmOptions {

    @Option(names = "--device", required = true, paramLabel = "BDF", description = "The GPU (any function of the card).")
    String device;

    @Option(names = "--vm", required = true, paramLabel = "ID|NAME", description = "The VM: its id (VMID, domain name)"
            + " or its name.")
    String vm;

    @Mixin
    PveOptions pve = new PveOptions();

    @Option(names = "--node", paramLabel = "NODE", description = "The VM's node (needed with --pve).")
    String node;

    @Option(names = "--libvirt", paramLabel = "URI", description = "A libvirt host (qemu:///system, qemu+ssh://…).")
    String libvirt;

    @Option(names = "--connection", paramLabel = "NAME", description = "A saved connection, by name (\"Demo lab\").")
    String connection;

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
        int named = (pve.present() ? 1 : 0) + (libvirt != null ? 1 : 0) + (connection != null ? 1 : 0);
        if (named != 1) {
            throw new IllegalArgumentException("name the VM's hypervisor with exactly one of --pve URL --node NODE,"
                    + " --libvirt URI or --connection NAME");
        }
        if (pve.present()) {
            if (node == null) {
                throw new IllegalArgumentException("--pve needs --node NODE: the node the VM runs on");
            }
            return new Opened(pve.session(services), Optional.empty(), Optional.empty(), "pve:" + pve.url);
        }
        if (libvirt != null) {
            return new Opened(HypervisorSource.session(services, libvirt), Optional.empty(), Optional.empty(),
                    "libvirt:" + libvirt);
        }
        AppContext ctx = GpuCommand.context(services);
        try {
            ConnectionInfo c = ConnectionCommand.named(ctx, connection);
            if (!ctx.sessions().isHypervisor(c.kind())) {
                throw new IllegalArgumentException(c.name() + " is an SSH host, not a hypervisor with VMs");
            }
            return new Opened(ctx.sessions().of(c), Optional.of(ctx), Optional.of(c), c.name());
        } catch (RuntimeException e) {
            ctx.close();
            throw e;
        } catch (Exception e) {
            ctx.close();
            throw new IOException("cannot read the saved connections: " + e.getMessage(), e);
        }
    }

    /** The VM by id or name (on --node when given; a libvirt host's one node otherwise). */
    VmRef vm(ConnectionSession s) throws BackendException {
        List<VmInfo> vms = s.inventory().vms();
        List<VmInfo> matching = vms.stream().filter(v -> !v.template() && (node == null || v.ref().node().equals(node))
                && (v.ref().id().equals(vm) || v.name().equals(vm))).toList();
        if (matching.isEmpty()) {
            throw new BackendException(BackendException.Kind.NOT_FOUND, "no VM '" + vm + "'"
                    + (node == null ? "" : " on " + node) + " on " + s.connection().name());
        }
        if (matching.size() > 1) {
            throw new BackendException(BackendException.Kind.INVALID, "'" + vm + "' names " + matching.size()
                    + " VMs; give its id, or --node");
        }
        return matching.get(0).ref();
    }
}
