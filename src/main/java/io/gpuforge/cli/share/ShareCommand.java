package io.gpuforge.cli.share;

import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.cli.common.EnglishWords;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.passthrough.ApplyProgressLines;
import io.gpuforge.app.passthrough.PassthroughService;
import io.gpuforge.app.share.ShareService;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.NodeTarget;
import io.gpuforge.cli.common.HostSource;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.host.HostFacts;
import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.passthrough.PlanBlockedException;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.pci.PciDevice;
import io.gpuforge.domain.share.ContainerUse;
import io.gpuforge.domain.share.GpuShare;
import io.gpuforge.domain.share.ShareReadiness;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code gpuforge share list|check|plan|apply}: a node's GPUs shared with its containers, and the host side of it. */
@Command(name = "share", mixinStandardHelpOptions = true,
        description = "A node's GPUs shared with its Proxmox containers: who shares what, whether a GPU can be shared,"
                + " and the host plan that makes it possible.",
        subcommands = {ShareCommand.ListShares.class, ShareCommand.CheckGpu.class, ShareCommand.PlanHost.class,
                       ShareCommand.ApplyHost.class})
public final class ShareCommand implements Runnable {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Per GPU: the containers that share it,"
            + " the device nodes each holds, and whether by devN or the old raw lxc lines; of the node --node names,"
            + " else of every node of the cluster (JSON: one entry per node under \"nodes\").")
    static final class ListShares extends CliCommand {
        @Mixin
        NodeOptions target = new NodeOptions();

        ListShares(CliServices services) {
            super(services);
        }

        /** What one node's host says of its GPUs and containers, and why something is not known. */
        private record OnNode(String node, List<GpuShare> shares, String note) {
        }

        @Override
        public Integer call() throws Exception {
            CliOutput o = services.output();
            try (NodeOptions.Cluster c = target.openCluster(services)) {
                List<OnNode> read = new java.util.ArrayList<>();
                for (int i = 0; i < c.nodes().size(); i++) {
                    read.add(read(c, c.nodes().get(i), c.hosts().get(i)));
                }
                if (json.enabled()) {
                    List<Map<String, Object>> nodes = read.stream().map(r -> {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("node", r.node());
                        m.put("gpus", r.shares().stream().map(ShareJson::share).toList());
                        m.put("note", r.note());
                        return m;
                    }).toList();
                    o.json(Map.of("nodes", nodes));
                    return 0;
                }
                for (OnNode r : read) {
                    String where = read.size() > 1 ? r.node() + ": " : "";
                    if (read.size() > 1) {
                        o.line("Node " + r.node() + (r.shares().isEmpty() ? ": no GPU, no container sharing one" : ""));
                    }
                    if (r.note() != null) {
                        o.error("gpuforge share list: " + where + r.note());
                    }
                    lines(o, r.shares());
                }
                return 0;
            } catch (IllegalArgumentException e) {
                o.error("gpuforge share list: " + e.getMessage());
                return 2;
            } catch (BackendException e) {
                o.error("gpuforge share list: " + e.getMessage());
                return 1;
            }
        }

        private OnNode read(NodeOptions.Cluster c, String node, Optional<HostTarget> host) {
            Optional<HostFacts> facts = Optional.empty();
            String note = null;
            if (host.isPresent()) {
                try {
                    facts = Optional.of(c.ctx().shares().facts(host.get(), HostSource::refuseUnknownKey));
                } catch (HostException e) {
                    note = "the node's host could not be read (" + e.getMessage() + "): device nodes are not"
                            + " matched to GPUs";
                }
            } else {
                note = "no host for the node: device nodes are not matched to GPUs (link it, or name it with --ssh)";
            }
            try {
                return new OnNode(node, c.ctx().shares().shares(c.session(), node, facts), note);
            } catch (BackendException e) {
                return new OnNode(node, List.of(), "its containers could not be read: " + e.getMessage());
            }
        }

        private static void lines(CliOutput o, List<GpuShare> shares) {
            for (GpuShare s : shares) {
                o.line(s.gpu().map(g -> "GPU " + g + s.name().map(x -> " " + PciDevice.modelName(x)).orElse("")
                        + s.driver().map(d -> " (" + d + ")").orElse("")).orElse("Device nodes of no known GPU")
                        + ": " + (s.containers().isEmpty() ? "shared by no container" : "shared by "
                        + CliOutput.count(s.containers().size(), "container")));
                for (ContainerUse u : s.containers()) {
                    o.line("  CT " + u.vmid() + " " + u.name() + " (" + u.status() + "): " + String.join(", ",
                            u.nodes()) + (u.legacy() ? "  [shared the old way: raw lxc lines]" : "  [devN]"));
                }
            }
        }
    }

    /** The node, its host and one GPU. */
    abstract static class OnGpu extends CliCommand {
        @Mixin
        NodeOptions target = new NodeOptions();
        @Option(names = "--gpu", required = true, paramLabel = "BDF", description = "The GPU, e.g. 0000:04:00.0.")
        String gpu;

        OnGpu(CliServices services) {
            super(services);
        }

        abstract String verb();

        abstract int run(NodeTarget n, HostTarget host, PciAddress address, CliOutput o) throws Exception;

        @Override
        public Integer call() throws Exception {
            CliOutput o = services.output();
            try (NodeTarget n = target.open(services)) {
                return run(n, n.requireHost(), PciAddress.parse(gpu), o);
            } catch (PlanBlockedException e) {
                o.error("gpuforge share " + verb() + ": " + e.getMessage());
                return 1;
            } catch (BackendException | HostException | IllegalArgumentException e) {
                return failed("share " + verb(), e);
            }
        }
    }

    @Command(name = "check", mixinStandardHelpOptions = true, description = "Whether the GPU can be shared with"
            + " containers: its host driver and version, Proxmox's devN, the device nodes.",
            exitCodeListHeading = "Exit codes:%n",
            exitCodeList = {"0:ready", "1:blocked, or the node or its host could not be read", "2:usage",
                "3:the host plan is needed first (gpuforge share apply)"})
    static final class CheckGpu extends OnGpu {
        CheckGpu(CliServices s) {
            super(s);
        }

        String verb() {
            return "check";
        }

        int run(NodeTarget n, HostTarget host, PciAddress address, CliOutput o) throws Exception {
            ShareService shares = n.ctx().shares();
            ShareReadiness r = shares.readiness(host, address, HostSource::refuseUnknownKey);
            List<String> explained = shares.explain(r);
            if (json.enabled()) {
                o.json(ShareJson.readiness(r, explained));
            } else {
                o.line("GPU " + address + " on " + n.node() + ": " + r.verdict().kind().json()
                        + r.hostDriver().map(d -> " (host driver " + d + r.driverVersion().map(v -> " " + v)
                        .orElse("") + ")").orElse(""));
                explained.forEach(l -> o.line("  " + l));
                if (!r.devices().isEmpty()) {
                    o.line("A container gets: " + String.join("  ", r.devices().stream().map(d -> d.value()).toList()));
                }
            }
            return switch (r.verdict().kind()) {
                case READY -> 0;
                case NEEDS_HOST_SETUP -> 3;
                default -> 1;
            };
        }
    }

    @Command(name = "plan", mixinStandardHelpOptions = true, description = "The host plan for sharing the GPU: the"
            + " boot unit that makes NVIDIA's device nodes (as a diff), its command, and the devN lines; nothing"
            + " changed.")
    static final class PlanHost extends OnGpu {
        PlanHost(CliServices s) {
            super(s);
        }

        String verb() {
            return "plan";
        }

        int run(NodeTarget n, HostTarget host, PciAddress address, CliOutput o) throws Exception {
            PassthroughPlan p = n.ctx().shares().hostPlan(host, address, HostSource::refuseUnknownKey);
            if (json.enabled()) {
                o.json(ShareJson.plan(p));
            } else {
                print(o, p);
            }
            return 0;
        }
    }

    static void print(CliOutput o, PassthroughPlan p) {
        if (p.hostChangesNothing()) {
            o.line("The host needs no change.");
        }
        p.edits().forEach(e -> e.diff().lines().forEach(o::line));
        p.commands().forEach(c -> o.line("$ " + c));
        p.vmChanges().forEach(v -> {
            o.line("Container devices (" + v.description() + "):");
            v.snippet().lines().forEach(l -> o.line("  " + l));
        });
        p.notes().forEach(x -> o.line("Note: " + EnglishWords.of(x)));
    }

    @Command(name = "apply", mixinStandardHelpOptions = true, description = "Apply the host plan for sharing the GPU"
            + " (journal and backups; gpuforge rollback undoes it byte for byte).")
    static final class ApplyHost extends OnGpu {
        @Option(names = "--yes", description = "Apply without asking.")
        boolean yes;

        ApplyHost(CliServices s) {
            super(s);
        }

        String verb() {
            return "apply";
        }

        int run(NodeTarget n, HostTarget host, PciAddress address, CliOutput o) throws Exception {
            ApplyProgress progress = new ApplyProgressLines(o::error, ApplyProgressLines.Style.TEXT, !json.quiet);
            Optional<PassthroughService.Applied> done = n.ctx().shares().applyHostPlan(host, address,
                    p -> confirm(o, p, "Apply these changes to " + host.describe() + "?"), progress,
                    HostSource::refuseUnknownKey);
            if (done.isEmpty()) {
                o.error("gpuforge share apply: not applied.");
                return 1;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("status", done.get().outcome().status().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
            m.put("journal", done.get().outcome().journalId());
            m.put("files", done.get().outcome().filesChanged());
            m.put("commands", done.get().outcome().commandsRun());
            if (json.enabled()) {
                o.json(m);
            } else {
                o.line("Host plan " + m.get("status") + " on " + done.get().host() + " (journal " + m.get("journal")
                        + "); undo with gpuforge rollback.");
            }
            return 0;
        }

        private boolean confirm(CliOutput o, PassthroughPlan p, String question) {
            if (!json.enabled()) {
                print(o, p);
            }
            if (yes) {
                return true;
            }
            return services.confirm(question);
        }
    }
}
