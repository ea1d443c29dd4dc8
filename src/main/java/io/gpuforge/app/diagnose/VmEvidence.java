package io.gpuforge.app.diagnose;

import io.gpuforge.app.host.HostKeyPrompt;
import io.gpuforge.app.host.HostLogs;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.diagnose.Collected;
import io.gpuforge.domain.diagnose.LogInput;
import io.gpuforge.domain.diagnose.LogSource;
import io.gpuforge.domain.vm.FailedStart;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmRef;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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

    /** The longest task log read: PVE's start logs are tens of lines; a runaway one is cut at its start. */
    static final int MAX_TASK_LINES = 5000;
    /** The most lines read of a host's kernel log or a domain's log. */
    static final int MAX_HOST_LINES = 5000;

    record Gathered(List<LogInput> inputs, List<Collected> collected) {
    }

    private VmEvidence() {
    }

    /** Where the node's host is reached from (its host link), and how an unknown host key is answered. */
    record Hosts(ConnectionInfo connection, HostLogs logs, HostKeyPrompt prompt) {
    }

    static Gathered of(ConnectionSession s, VmRef vm, Hosts hosts, int maxBytes) {
        List<LogInput> inputs = new ArrayList<>();
        List<Collected> collected = new ArrayList<>();
        String what = "the last failed start of VM " + vm.id() + " on " + vm.node();
        Optional<FailedStart> f = Optional.empty();
        long t0 = System.nanoTime();
        try {
            if (hosts.connection().kind() == ConnectionInfo.Kind.LIBVIRT) {
                throw new BackendException(BackendException.Kind.UNSUPPORTED, "libvirt keeps no record of a failed"
                        + " start; QEMU's own words are in the domain's log, read below");
            }
            f = s.lastFailedStart(vm, MAX_TASK_LINES);
            if (f.isPresent()) {
                String name = "task " + f.get().task();
                add(inputs, collected, name, LogSource.TASK_LOG, f.get().log(), maxBytes);
            } else {
                collected.add(new Collected(what, LogSource.TASK_LOG, 0, 0, 0, Optional.of("no failed start of VM "
                        + vm.id() + " among the tasks of " + vm.node() + ": start it once more, then diagnose it")));
            }
        } catch (BackendException e) {
            collected.add(new Collected(what, LogSource.TASK_LOG, 0, 0, 0, Optional.of(what + " could not be read: "
                    + e.getMessage())));
        }
        timed(collected, 0, t0);
        String config = "the configuration of VM " + vm.id();
        int from = collected.size();
        t0 = System.nanoTime();
        Optional<String> osType = Optional.empty();
        List<PciAddress> functions = List.of();
        try {
            VmConfig c = s.readConfig(vm);
            add(inputs, collected, config, LogSource.PASTED, c.document(), maxBytes);
            osType = c.details().osType();
            functions = c.details().hostDevices();
        } catch (BackendException e) {
            collected.add(new Collected(config, LogSource.PASTED, 0, 0, 0, Optional.of(config + " could not be read: "
                    + e.getMessage())));
        }
        timed(collected, from, t0);
        host(vm, hosts, f, inputs, collected, maxBytes);
        functions(vm, hosts, functions, inputs, collected, maxBytes);
        GuestEvidence.of(s, vm, osType, inputs, collected, maxBytes);
        return new Gathered(inputs, collected);
    }

    /** Over the node's host link: the VM's GPU functions as the host sees them (drivers, group, reset, power). */
    private static void functions(VmRef vm, Hosts hosts, List<PciAddress> functions, List<LogInput> inputs,
                                  List<Collected> collected, int maxBytes) {
        if (functions.isEmpty()) {
            return;
        }
        String name = "the GPU's functions on " + vm.node();
        int from = collected.size();
        long t0 = System.nanoTime();
        try {
            add(inputs, collected, name, LogSource.PASTED, hosts.logs().pciFacts(new HostTarget.Linked(
                    hosts.connection(), vm.node()), functions, hosts.prompt()), maxBytes);
        } catch (HostException e) {
            collected.add(new Collected(name, LogSource.PASTED, 0, 0, 0, Optional.of(name + " could not be read: "
                    + e.getMessage())));
        }
        timed(collected, from, t0);
    }

    /** Over the node's host link: its kernel log around the failed start, and libvirt's log of the domain. */
    private static void host(VmRef vm, Hosts hosts, Optional<FailedStart> f, List<LogInput> inputs,
                             List<Collected> collected, int maxBytes) {
        HostTarget node = new HostTarget.Linked(hosts.connection(), vm.node());
        String kernel = "the kernel log of " + vm.node();
        int from = collected.size();
        long t0 = System.nanoTime();
        try {
            add(inputs, collected, kernel, LogSource.KERNEL_LOG, hosts.logs().kernelLog(node,
                    f.map(FailedStart::at), MAX_HOST_LINES, hosts.prompt()), maxBytes);
        } catch (HostException e) {
            collected.add(new Collected(kernel, LogSource.KERNEL_LOG, 0, 0, 0, Optional.of(kernel
                    + " could not be read: " + e.getMessage())));
        }
        timed(collected, from, t0);
        if (hosts.connection().kind() != ConnectionInfo.Kind.LIBVIRT) {
            return;
        }
        String path = "/var/log/libvirt/qemu/" + vm.id() + ".log";
        from = collected.size();
        t0 = System.nanoTime();
        try {
            Optional<String> log = hosts.logs().tail(node, path, MAX_HOST_LINES, hosts.prompt());
            if (log.isPresent()) {
                add(inputs, collected, path, LogSource.QEMU_LOG, log.get(), maxBytes);
            } else {
                collected.add(new Collected(path, LogSource.QEMU_LOG, 0, 0, 0, Optional.of(path + " does not exist on "
                        + vm.node())));
            }
        } catch (HostException e) {
            collected.add(new Collected(path, LogSource.QEMU_LOG, 0, 0, 0, Optional.of(path + " could not be read: "
                    + e.getMessage())));
        }
        timed(collected, from, t0);
    }

    /** Marks what was collected from index {@code from} on with the time since {@code t0}. */
    static void timed(List<Collected> collected, int from, long t0) {
        long ms = Math.max(1, (System.nanoTime() - t0) / 1_000_000);
        for (int i = from; i < collected.size(); i++) {
            collected.set(i, collected.get(i).took(ms));
        }
    }

    /** A text as read, its end kept when it is over {@code maxBytes}. */
    static void add(List<LogInput> inputs, List<Collected> collected, String name, LogSource source,
                            String text, int maxBytes) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        long skipped = Math.max(0, bytes.length - maxBytes);
        String kept = skipped == 0 ? text : new String(bytes, (int) skipped, maxBytes, StandardCharsets.UTF_8);
        int lines = kept.isEmpty() ? 0 : (int) kept.lines().count();
        Optional<LogSource> known = source == LogSource.PASTED ? Optional.empty() : Optional.of(source);
        inputs.add(new LogInput(name, known, kept));
        collected.add(new Collected(name, source, bytes.length - skipped, skipped, lines, Optional.empty()));
    }
}
