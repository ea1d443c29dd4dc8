package io.gpuforge.app.diagnose;

import io.gpuforge.app.host.HostKeyPrompt;
import io.gpuforge.app.host.HostLogs;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.message.Message;
import io.gpuforge.domain.diagnose.LogSource;
import io.gpuforge.domain.vm.FailedStart;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmRef;
import java.util.List;
import java.util.Optional;

/**
 * What a VM's failed start left, fetched for the diagnosis: the log of its last failed start (a Proxmox VE
 * {@code qmstart} task, at most {@value #MAX_TASK_LINES} lines), its configuration, and over the node's host link the
 * kernel log from a minute before the start and, for libvirt, the domain's log; then the guest over its agent
 * ({@link GuestEvidence}). Each source is
 * listed in the diagnosis with what was read of it, or why it could not be read; nothing is guessed around a source
 * that could not be read. Blocking.
 */
final class VmEvidence {

    /** The task log's problem when the VM has no failed start at all (nothing to diagnose). */
    static final String NO_FAILED_START = "read.noFailedStart";

    /** The longest task log read: PVE's start logs are tens of lines; a runaway one is cut at its start. */
    static final int MAX_TASK_LINES = 5000;
    /** The most lines read of a host's kernel log or a domain's log. */
    static final int MAX_HOST_LINES = 5000;

    private VmEvidence() {
    }

    /** Where the node's host is reached from (its host link), and how an unknown host key is answered. */
    record Hosts(ConnectionInfo connection, HostLogs logs, HostKeyPrompt prompt, OwnStarts ownStarts) {
    }

    /** GPUForge's own last failed start of a VM, from its task log: libvirt's error in its status, and its log. */
    interface OwnStarts {
        OwnStarts NONE = (c, vm) -> Optional.empty();

        Optional<io.gpuforge.domain.tasks.TaskRecord> lastFailed(ConnectionInfo c, VmRef vm);

        static OwnStarts of(io.gpuforge.app.tasks.TaskLog log) {
            return (c, vm) -> {
                try {
                    return log.recent(2000).stream().filter(t -> t.connectionId() == c.id()
                            && t.action().equals(io.gpuforge.app.tasks.TaskLog.VM_START)
                            && t.target().equals(vm.toString())
                            && t.status() == io.gpuforge.domain.tasks.TaskRecord.Status.FAILED).findFirst();
                } catch (io.gpuforge.store.StoreException e) {
                    return Optional.empty();
                }
            };
        }
    }

    static void of(ConnectionSession s, VmRef vm, Hosts hosts, Evidence e) {
        String what = "the last failed start of VM " + vm.id() + " on " + vm.node();
        Message whatLabel = Message.of("log.lastFailedStart", vm.id(), vm.node());
        Optional<FailedStart> f = Optional.empty();
        long t0 = System.nanoTime();
        try {
            if (hosts.connection().kind() == ConnectionInfo.Kind.LIBVIRT) {
                // libvirt keeps no record of a failed start: its error went back to whoever started it
                Optional<io.gpuforge.domain.tasks.TaskRecord> own = hosts.ownStarts().lastFailed(hosts.connection(), vm);
                if (own.isPresent()) {
                    io.gpuforge.domain.tasks.TaskRecord t = own.get();
                    String text = String.join("\n", t.log()) + "\n" + t.statusText() + "\n";
                    f = Optional.of(new FailedStart("libvirt's error when GPUForge started VM " + vm.id() + " at "
                            + t.started(), t.started(), t.statusText(), text));
                    e.text(f.get().task(), Message.of("log.libvirtError", vm.id(), t.started().toString()),
                            LogSource.TASK_LOG, f.get().log(), t0);
                } else {
                    e.missing(what, whatLabel, LogSource.TASK_LOG, Message.of("read.libvirtNoRecord", vm.id()), t0);
                }
            } else {
                f = s.lastFailedStart(vm, MAX_TASK_LINES);
                if (f.isPresent()) {
                    e.text("task " + f.get().task(), Message.of("log.task", f.get().task()), LogSource.TASK_LOG,
                            f.get().log(), t0);
                } else {
                    e.missing(what, whatLabel, LogSource.TASK_LOG, Message.of(NO_FAILED_START, vm.id(), vm.node()),
                            t0);
                }
            }
        } catch (BackendException x) {
            e.missing(what, whatLabel, LogSource.TASK_LOG, notRead(whatLabel, x), t0);
        }
        String config = "the configuration of VM " + vm.id();
        Message configLabel = Message.of("log.configuration", vm.id());
        t0 = System.nanoTime();
        Optional<String> osType = Optional.empty();
        List<PciAddress> functions = List.of();
        try {
            VmConfig c = s.readConfig(vm);
            e.text(config, configLabel, LogSource.PASTED, c.document(), t0);
            osType = c.details().osType();
            functions = c.details().hostDevices();
        } catch (BackendException x) {
            e.missing(config, configLabel, LogSource.PASTED, notRead(configLabel, x), t0);
        }
        host(vm, hosts, f, e);
        functions(vm, hosts, functions, e);
        GuestEvidence.of(s, vm, osType, e);
    }

    /** "… could not be read: why". */
    static Message notRead(Message label, Exception x) {
        return Message.of("read.failed", label, String.valueOf(x.getMessage()));
    }

    /** Over the node's host link: the VM's GPU functions as the host sees them (drivers, group, reset, power). */
    private static void functions(VmRef vm, Hosts hosts, List<PciAddress> functions, Evidence e) {
        if (functions.isEmpty()) {
            return;
        }
        String name = "the GPU's functions on " + vm.node();
        Message label = Message.of("log.functions", vm.node());
        long t0 = System.nanoTime();
        try {
            e.text(name, label, LogSource.PASTED, hosts.logs().pciFacts(new HostTarget.Linked(hosts.connection(),
                    vm.node()), functions, hosts.prompt()), t0);
        } catch (HostException x) {
            e.missing(name, label, LogSource.PASTED, notRead(label, x), t0);
        }
    }

    /** Over the node's host link: its kernel log around the failed start, and libvirt's log of the domain. */
    private static void host(VmRef vm, Hosts hosts, Optional<FailedStart> f, Evidence e) {
        HostTarget node = new HostTarget.Linked(hosts.connection(), vm.node());
        String kernel = "the kernel log of " + vm.node();
        Message kernelLabel = Message.of("log.kernel", vm.node());
        long t0 = System.nanoTime();
        try {
            e.text(kernel, kernelLabel, LogSource.KERNEL_LOG, hosts.logs().kernelLog(node, f.map(FailedStart::at),
                    MAX_HOST_LINES, hosts.prompt()), t0);
        } catch (HostException x) {
            e.missing(kernel, kernelLabel, LogSource.KERNEL_LOG, notRead(kernelLabel, x), t0);
        }
        if (hosts.connection().kind() != ConnectionInfo.Kind.LIBVIRT) {
            return;
        }
        String path = "/var/log/libvirt/qemu/" + vm.id() + ".log";
        Message pathLabel = Message.of("log.named", path);
        t0 = System.nanoTime();
        try {
            Optional<String> log = hosts.logs().tail(node, path, MAX_HOST_LINES, hosts.prompt());
            if (log.isPresent()) {
                e.text(path, pathLabel, LogSource.QEMU_LOG, log.get(), t0);
            } else {
                e.missing(path, pathLabel, LogSource.QEMU_LOG, Message.of("read.absent", path, vm.node()), t0);
            }
        } catch (HostException x) {
            e.missing(path, pathLabel, LogSource.QEMU_LOG, notRead(pathLabel, x), t0);
        }
    }
}
