package io.gpuforge.cli.host;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.ClusterInventory;
import io.gpuforge.domain.GpuInfo;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.host.HostSummary;
import io.gpuforge.domain.NodeInfo;
import io.gpuforge.domain.vm.VmInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.HypervisorTarget;

/**
 * {@code gpuforge inventory}: the hosts, VMs and GPUs of a hypervisor ({@link HypervisorTarget}: a saved connection,
 * {@code --pve}, {@code --libvirt}), or this computer's (or a sysroot's) summary.
 */
@Command(name = "inventory", mixinStandardHelpOptions = true,
        description = "Show the nodes, VMs and GPUs of a hypervisor (--connection, --pve, --libvirt), or this"
                + " computer's summary (--local, the default, or --sysroot).")
public final class InventoryCommand extends CliCommand {
    static final class Source {
        @Option(names = "--local", description = "This computer (the default).")
        boolean local;

        @Option(names = "--sysroot", paramLabel = "DIR|FILE.tar.gz",
                description = "A directory that mirrors a host's /, or a snapshot made by gpuforge snapshot.")
        Path sysroot;
    }

    @ArgGroup(exclusive = true)
    Source source = new Source();

    @Mixin
    HypervisorTarget hypervisor = new HypervisorTarget();

    InventoryCommand(CliServices services) {
        super(services);
    }

    @Override
    public Integer call() throws IOException {
        if (hypervisor.present()) {
            if (source.local || source.sysroot != null) {
                services.output().error("gpuforge inventory: --local and --sysroot do not go with a hypervisor");
                return 2;
            }
            try (AppContext ctx = services.openContext()) {
                io.gpuforge.domain.connections.ConnectionInfo info = hypervisor.connection(services, ctx);
                ConnectionSession session = ctx.sessions().of(info);
                if (hypervisor.node != null) {
                    HypervisorTarget.requireNode(session, hypervisor.node);
                }
                return hypervisor(session, hypervisor.describe(), Optional.ofNullable(hypervisor.node),
                        s -> ctx.fleet().census(info, s));
            } catch (IllegalArgumentException e) {
                services.output().error("gpuforge inventory: " + e.getMessage());
                return 2;
            } catch (BackendException e) {
                services.output().error("gpuforge inventory: " + e.getMessage());
                return 1;
            }
        }
        HostSummary s;
        try {
            s = services.standalone().hosts().summary(source.sysroot == null ? new HostTarget.ThisComputer()
                    : Files.isRegularFile(source.sysroot) ? new HostTarget.Snapshot(source.sysroot)
                    : new HostTarget.Sysroot(source.sysroot));
        } catch (HostException e) {
            services.output().error("gpuforge inventory: " + e.getMessage());
            return 1;
        }
        if (json.enabled()) {
            services.output().json(toJson(s, source.sysroot == null ? "local" : "sysroot:" + source.sysroot));
        } else {
            CliOutput o = services.output();
            o.line("This computer: " + s.hostname());
            o.line("  OS:      " + s.operatingSystem().orElse("unknown"));
            o.line("  Kernel:  " + s.kernel().orElse("unknown") + " (" + s.architecture() + ")");
            o.line("  CPU:     " + s.cpuModel().orElse("unknown")
                    + (s.logicalCpus() > 0 ? ", " + s.logicalCpus() + " threads" : ""));
            o.line("  Memory:  " + s.memoryBytes().map(b -> String.format(Locale.ROOT, "%.1f GiB", b / 1073741824.0))
                    .orElse("unknown"));
            o.line("  IOMMU:   " + s.iommu().json() + (s.iommuGroups() > 0 ? " (" + CliOutput.count(s.iommuGroups(), "group") + ")" : ""));
        }
        return 0;
    }

    /** A hypervisor's inventory, the same shape for Proxmox VE and libvirt; {@code only}: one node of it. */
    /** The GPUs of a connection as the fleet reads them (every node's, with driver and holder). */
    interface Census {
        List<io.gpuforge.domain.telemetry.FleetGpu> read(ConnectionSession s) throws BackendException;
    }

    private int hypervisor(ConnectionSession session, String sourceName, Optional<String> only, Census census) {
        ClusterInventory inv;
        List<io.gpuforge.domain.telemetry.FleetGpu> rows;
        try {
            // the census first: the PCI listings and configurations it reads name every GPU's ids and group for the
            // inventory's own listing too
            rows = census.read(session);
            inv = session.inventory();
        } catch (BackendException e) {
            services.output().error("gpuforge inventory: " + e.getMessage());
            return e.kind() == BackendException.Kind.INVALID ? 2 : 1;
        }
        List<NodeInfo> nodes = inv.nodes().stream().filter(n -> only.map(n.name()::equals).orElse(true)).toList();
        List<VmInfo> vms = inv.vms().stream().filter(v -> only.map(v.ref().node()::equals).orElse(true)).toList();
        List<io.gpuforge.domain.telemetry.FleetGpu> gpus = rows.stream().filter(g -> only.map(g.host()::equals)
                .orElse(true)).toList();
        if (json.enabled()) {
            services.output().json(InventoryJson.of(sourceName, inv, nodes, vms, gpus));
            return 0;
        }
        CliOutput o = services.output();
        long templates = vms.stream().filter(VmInfo::template).count();
        long containers = inv.containers().stream().filter(c -> only.map(c.node()::equals).orElse(true)).count();
        // one count everywhere: VMs without templates, templates and containers apart
        o.line(inv.name() + " (" + inv.backendVersion() + "): " + CliOutput.count(nodes.size(), "node") + ", "
                + CliOutput.count(vms.size() - templates, "VM") + ", " + CliOutput.count(templates, "template") + ", "
                + CliOutput.count(containers, "container") + ", " + CliOutput.count(gpus.size(), "GPU"));
        for (VmInfo v : vms) {
            o.line("  " + v.ref().id() + "  " + v.name() + "  " + v.ref().node() + "  " + v.state().json()
                    + (v.template() ? " (template)" : "") + "  " + v.vcpus() + " vCPU  " + v.memoryBytes() / 1048576 + " MiB"
                    + v.details().map(d -> "  " + d.machine().orElse("") + "  " + d.firmware().json()).orElse("")
                    + (v.hostDevices().isEmpty() ? "" : "  GPU/PCI: " + v.hostDevices()));
        }
        for (io.gpuforge.domain.telemetry.FleetGpu g : gpus) {
            Optional<GpuInfo> mapped = mapped(inv, g);
            o.line("  GPU " + g.host() + " " + g.address().orElse("?") + "  " + g.model() + "  driver "
                    + g.driver().orElse("unknown") + mapped.flatMap(GpuInfo::mapping).map(m -> "  mapping " + m)
                    .orElse("") + "  " + io.gpuforge.cli.common.GpuHolder.text(g));
        }
        return 0;
    }

    /** What the inventory's own listing says of the GPU (its PCI mapping, ids, IOMMU group), when it has it. */
    static Optional<GpuInfo> mapped(ClusterInventory inv, io.gpuforge.domain.telemetry.FleetGpu g) {
        return inv.gpus().stream().filter(x -> x.node().equals(g.host()) && g.address().equals(Optional.of(
                x.address().toString()))).findFirst();
    }

    static Map<String, Object> toJson(HostSummary s, String sourceName) {
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("name", s.hostname());
        node.put("os", s.operatingSystem().orElse(null));
        node.put("kernel", s.kernel().orElse(null));
        node.put("arch", s.architecture());
        node.put("cpu", s.cpuModel().orElse(null));
        node.put("cpu_vendor", s.cpuVendor().orElse(null));
        node.put("logical_cpus", s.logicalCpus());
        node.put("memory_bytes", s.memoryBytes().orElse(null));
        node.put("iommu", s.iommu().json());
        node.put("iommu_groups", s.iommuGroups());
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("source", sourceName);
        root.put("nodes", List.of(node));
        root.put("vms", List.of());
        root.put("gpus", List.of());
        return root;
    }
}
