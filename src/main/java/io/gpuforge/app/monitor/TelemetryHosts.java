package io.gpuforge.app.monitor;

import io.gpuforge.app.host.HostAccess;
import io.gpuforge.app.host.HostKeyPrompt;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.host.HostShell;
import io.gpuforge.host.ProbeException;
import io.gpuforge.host.ssh.SshShell;
import io.gpuforge.host.ssh.SshTarget;
import io.gpuforge.telemetry.GpuSource;
import io.gpuforge.telemetry.HwmonSource;
import io.gpuforge.telemetry.LocalLineStreams;
import io.gpuforge.telemetry.NvidiaSmiStream;
import io.gpuforge.telemetry.Nvml;
import io.gpuforge.telemetry.NvmlSource;
import io.gpuforge.telemetry.SourceException;
import io.gpuforge.telemetry.SshHost;
import io.gpuforge.telemetry.TelemetryThreads;
import java.io.File;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The GPU sources of a host: this computer (NVML, else its {@code nvidia-smi} stream; amdgpu hwmon), or a host
 * over SSH through {@link HostAccess} (the CLI's {@code --ssh}, a saved SSH host, a node's linked host): ONE
 * long-lived {@code nvidia-smi -lms} stream and the hwmon readings over one session, opened again when it drops.
 */
final class TelemetryHosts {

    private static final Logger LOG = LoggerFactory.getLogger(TelemetryHosts.class);
    /** Telemetry runs unattended: a host key never seen is not accepted here (the host's page or the CLI asks). */
    private static final HostKeyPrompt UNKNOWN_KEYS_REFUSED = (host, type, fingerprint) -> false;
    private final TelemetrySources.Tools tools;
    private final TelemetryThreads threads;
    private final HostAccess access;
    private final Clock clock;

    TelemetryHosts(TelemetrySources.Tools tools, TelemetryThreads threads, HostAccess access, Clock clock) {
        this.tools = tools;
        this.threads = threads;
        this.access = access;
        this.clock = clock;
    }

    /** This computer's sources; a clear error when it has no GPU GPUForge can read. */
    List<GpuSource> local() throws TelemetryService.Failure {
        List<GpuSource> out = new ArrayList<>();
        String why;
        try {
            out.add(new NvmlSource(Nvml.load(tools.nvmlLibrary()), "local"));
            why = "";
        } catch (SourceException e) {
            why = e.getMessage();
            if (onPath(tools.nvidiaSmi())) {
                out.add(new NvidiaSmiStream(new LocalLineStreams(threads.pool()), "local", tools.nvidiaSmi(),
                        Optional.empty(), clock));
            }
        }
        HwmonSource amd = HwmonSource.local(Path.of("/"), "local", Optional.empty());
        if (hasAmd(amd)) {
            out.add(amd);
        }
        if (out.isEmpty()) {
            throw new TelemetryService.Failure(TelemetryService.Failure.Reason.NO_LOCAL_SOURCE,
                    "No GPU source on this computer: " + why + "; nvidia-smi is not on the"
                    + " PATH and there is no amdgpu card. A GPU passed through to a VM is read inside it (--pve … --vm).");
        }
        return out;
    }

    /**
     * The sources of a host over SSH. With {@code mustConnect} (a host the user named) a host that cannot be reached,
     * or has no GPU GPUForge can read, is an error; otherwise (one node of a cluster) its stream is kept and says
     * itself why it fails, trying again with backoff, and a host without a GPU gives no source.
     */
    List<GpuSource> ssh(HostTarget target, Optional<String> node, boolean mustConnect, List<AutoCloseable> held)
            throws TelemetryService.Failure {
        String id = hostId(target);
        SshHost host = new SshHost(id, () -> connect(target), threads.pool());
        NvidiaSmiStream stream = new NvidiaSmiStream(host, id, "nvidia-smi", node, clock);
        try {
            host.session();
        } catch (ProbeException e) {
            if (mustConnect) {
                host.close();
                throw new TelemetryService.Failure(e.getMessage(), e);
            }
            LOG.info("{} cannot be reached now ({}); its nvidia-smi stream tries again", id, e.getMessage());
            held.add(host);
            return List.of(stream);
        }
        held.add(host);
        List<GpuSource> out = new ArrayList<>();
        boolean nvidia;
        try {
            nvidia = host.run("command -v nvidia-smi", new byte[0], Duration.ofSeconds(20)).exitCode() == 0;
        } catch (ProbeException e) {
            nvidia = true; // the stream says what is wrong, and tries again
        }
        if (nvidia) {
            out.add(stream);
        }
        HwmonSource amd = HwmonSource.shell(host, id, node);
        if (hasAmd(amd)) {
            out.add(amd);
        }
        if (out.isEmpty()) {
            held.remove(host);
            host.close();
        }
        if (out.isEmpty() && mustConnect) {
            throw new TelemetryService.Failure("No GPU source on " + id + ": nvidia-smi is not installed there and"
                    + " there is no amdgpu card. Install the NVIDIA driver there, or read an exporter (--exporter URL);"
                    + " a GPU passed through to a VM is read inside it (--pve … --vm).");
        }
        return out;
    }

    /**
     * The sources of every node of {@code c} that is linked to a host (this computer, or an SSH host), connected in
     * parallel; a node without a link gives none. Never fails: a host that cannot be reached reports itself.
     */
    List<GpuSource> linked(ConnectionInfo c, List<String> nodes, List<AutoCloseable> held) {
        List<CompletableFuture<List<GpuSource>>> each = new ArrayList<>();
        List<AutoCloseable> opened = Collections.synchronizedList(new ArrayList<>());
        boolean local = false;
        for (String node : nodes) {
            HostTarget t;
            try {
                t = access.resolve(c, node);
            } catch (HostException e) {
                continue; // not linked: its GPUs are read inside their VMs only
            }
            if (t instanceof HostTarget.ThisComputer) {
                if (!local) {
                    local = true;
                    each.add(CompletableFuture.supplyAsync(() -> quietly(this::local, node), threads.pool()));
                }
                continue;
            }
            each.add(CompletableFuture.supplyAsync(() -> quietly(() -> ssh(t, Optional.of(node), false, opened), node),
                    threads.pool()));
        }
        List<GpuSource> out = new ArrayList<>();
        for (CompletableFuture<List<GpuSource>> f : each) {
            try {
                out.addAll(f.join());
            } catch (CompletionException e) {
                LOG.warn("The linked host of a node of {} could not be read", c.name(), e.getCause());
            }
        }
        held.addAll(opened);
        return out;
    }

    private interface Sources {
        List<GpuSource> get() throws TelemetryService.Failure;
    }

    private static List<GpuSource> quietly(Sources s, String node) {
        try {
            return s.get();
        } catch (TelemetryService.Failure e) {
            LOG.info("No GPU is read on the host of {}: {}", node, e.getMessage());
            return List.of();
        }
    }

    /** A shell on a host for setting power limits, and whether commands there need sudo. */
    HostAccess.Opened shell(HostTarget target) throws TelemetryService.Failure {
        try {
            return access.open(target, UNKNOWN_KEYS_REFUSED);
        } catch (HostException e) {
            throw new TelemetryService.Failure(e.getMessage(), e);
        }
    }

    private SshShell connect(HostTarget target) throws ProbeException {
        HostAccess.Opened o;
        try {
            o = access.open(target, UNKNOWN_KEYS_REFUSED);
        } catch (HostException e) {
            throw new ProbeException(e.getMessage(), e);
        }
        HostShell s = o.shell();
        if (!(s instanceof SshShell)) {
            o.close();
            throw new ProbeException(target.describe() + " is not a host over SSH");
        }
        return (SshShell) s;
    }

    /** The host part of the GPU ids of a host over SSH: {@code ssh:user@host[:port]}, stable across restarts. */
    static String hostId(HostTarget t) {
        try {
            if (t instanceof HostTarget.Ssh) {
                return "ssh:" + SshTarget.parse(((HostTarget.Ssh) t).login().destination(),
                        System.getProperty("user.name"));
            }
            if (t instanceof HostTarget.Saved) {
                ConnectionInfo c = ((HostTarget.Saved) t).connection();
                return "ssh:" + SshTarget.parse(c.username() + "@" + c.address(), c.username());
            }
        } catch (IllegalArgumentException e) {
            // an alias of ~/.ssh/config, or a form SshTarget does not know: named as the target names itself
        }
        return t.describe();
    }

    private static boolean hasAmd(HwmonSource s) {
        try {
            return !s.poll(0, 1000).isEmpty();
        } catch (SourceException e) {
            return false;
        }
    }

    static boolean onPath(String command) {
        if (command.contains("/")) {
            return new File(command).canExecute();
        }
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            if (new File(dir, command).canExecute()) {
                return true;
            }
        }
        return false;
    }
}
