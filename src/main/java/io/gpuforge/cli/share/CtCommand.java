package io.gpuforge.cli.share;

import io.gpuforge.bounded.BoundedStreams;
import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.passthrough.ApplyProgressLines;
import io.gpuforge.app.share.ContainerPreflight;
import io.gpuforge.app.share.ShareService;
import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.passthrough.PlanBlockedException;
import io.gpuforge.domain.passthrough.Verdict;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.NodeTarget;
import io.gpuforge.cli.common.HostSource;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.share.ContainerInfo;
import io.gpuforge.domain.share.ContainerSpec;
import io.gpuforge.domain.share.ShareReadiness;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.VmAction;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code gpuforge ct list|create|add-gpu|start|shutdown|stop|delete}: a node's Proxmox LXC containers. */
@Command(name = "ct", mixinStandardHelpOptions = true,
        description = "A node's Proxmox LXC containers: list them, create one from a template with a shared GPU, give"
                + " one a GPU, move one from the old raw lxc lines to devN, start, shut down, stop and delete them.",
        subcommands = {CtCommand.ListCts.class, CtCommand.Create.class, CtCommand.AddGpu.class, CtCommand.Start.class,
                       CtCommand.Shutdown.class, CtCommand.Stop.class, CtCommand.Delete.class, CtMigrateCommand.class})
public final class CtCommand implements Runnable {

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the node's containers with their"
            + " device entries (devN) and raw lxc lines.")
    static final class ListCts extends CliCommand {
        @Mixin
        NodeOptions target = new NodeOptions();

        ListCts(CliServices services) {
            super(services);
        }

        @Override
        public Integer call() throws Exception {
            CliOutput o = services.output();
            try (NodeTarget n = target.open(services)) {
                List<ContainerInfo> cts = n.session().containers(n.node());
                if (json.enabled()) {
                    o.json(Map.of("node", n.node(), "containers", cts.stream().map(ShareJson::container).toList()));
                    return 0;
                }
                for (ContainerInfo c : cts) {
                    o.line(String.format(java.util.Locale.ROOT, "%-10s %-6d %-24s %-8s", c.node(), c.vmid(), c.name(),
                            c.status()));
                    c.devices().forEach((i, d) -> o.line("    dev" + i + ": " + d.value()));
                    c.lxc().forEach(l -> o.line("    " + l.line()));
                }
                return 0;
            } catch (BackendException | IllegalArgumentException e) {
                return failed("ct list", e);
            }
        }
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Create a container from a template"
            + " (STORAGE:vztmpl/FILE), unprivileged, with the GPU's device nodes when --gpu is given (the GPU must be"
            + " ready: gpuforge share check).")
    static final class Create extends CliCommand {
        @Mixin
        NodeOptions target = new NodeOptions();
        @Option(names = "--name", required = true, paramLabel = "HOSTNAME", description = "The container's host name.")
        String name;
        @Option(names = "--template", required = true, paramLabel = "VOLID",
                description = "The template volume, e.g. local:vztmpl/debian-12-standard_12.7-1_amd64.tar.zst.")
        String template;
        @Option(names = "--gpu", paramLabel = "BDF", description = "The GPU to share with it.")
        String gpu;
        @Option(names = "--vmid", paramLabel = "ID", description = "Its id (default: the lowest free one from 100).")
        Integer vmid;
        @Option(names = "--cores", defaultValue = "2", description = "CPU cores (default ${DEFAULT-VALUE}).")
        int cores;
        @Option(names = "--memory", defaultValue = "2048", paramLabel = "MiB", description = "Memory in MiB (default"
                + " ${DEFAULT-VALUE}).")
        int memory;
        @Option(names = "--disk", defaultValue = "8", paramLabel = "GiB", description = "Root disk in GiB (default"
                + " ${DEFAULT-VALUE}).")
        int disk;
        @Option(names = "--storage", paramLabel = "STORAGE", description = "Where the root disk goes (default: the"
                + " node's first storage for container disks).")
        String storage;
        @Option(names = "--bridge", defaultValue = "vmbr0", description = "The network bridge (default ${DEFAULT-VALUE}).")
        String bridge;
        @Option(names = "--ssh-key", paramLabel = "FILE", description = "A public key file for root's logins.")
        Path sshKey;
        @Option(names = "--start", description = "Start it once made.")
        boolean start;
        @Option(names = "--with-host-plan", description = "When the GPU needs its host plan first (NVIDIA's device"
                + " nodes made at boot), show it, apply it after confirmation (or --yes), then create the container.")
        boolean withHostPlan;
        @Option(names = "--yes", description = "With --with-host-plan: apply it without asking.")
        boolean yes;

        Create(CliServices services) {
            super(services);
        }

        @Override
        public Integer call() throws Exception {
            CliOutput o = services.output();
            try (NodeTarget n = target.open(services)) {
                ShareService shares = n.ctx().shares();
                int id = vmid != null ? vmid : n.ctx().containers().freeId(n.session());
                ContainerSpec spec = new ContainerSpec(id, name, template, cores, memory, storage(n), disk, bridge,
                        List.of(), sshKey == null ? Optional.empty() : Optional.of(BoundedStreams.readString(sshKey, 64 * 1024).strip()),
                        start);
                // what Proxmox VE would refuse is refused before the host plan changes anything
                List<String> problems = new ContainerPreflight(n.ctx().containers()).problems(n.session(), n.node(), spec);
                if (!problems.isEmpty()) {
                    o.error("gpuforge ct create: refused, nothing changed: " + String.join("; ", problems));
                    return 1;
                }
                Optional<ShareReadiness> ready = Optional.empty();
                if (gpu != null) {
                    HostTarget host = n.requireHost();
                    PciAddress address = PciAddress.parse(gpu);
                    ready = Optional.of(shares.readiness(host, address, HostSource::refuseUnknownKey));
                    if (withHostPlan && ready.get().verdict().kind() == Verdict.Kind.NEEDS_HOST_SETUP) {
                        if (shares.applyHostPlan(host, address, p -> confirm(o, p, host), new ApplyProgressLines(
                                o::error, ApplyProgressLines.Style.TEXT, !json.quiet), HostSource::refuseUnknownKey)
                                .isEmpty()) {
                            o.error("gpuforge ct create: the host plan was not applied; nothing changed.");
                            return 1;
                        }
                        ready = Optional.of(shares.readiness(host, address, HostSource::refuseUnknownKey));
                    }
                }
                TaskOutcome out = n.ctx().containers().create(n.session(), n.node(), spec, ready, line -> {
                    if (!json.quiet && !json.enabled()) {
                        o.error("  " + line);
                    }
                }, () -> false);
                if (!out.ok()) {
                    o.error("gpuforge ct create: " + out.status());
                    return 1;
                }
                ContainerInfo made = n.session().container(n.node(), id);
                if (json.enabled()) {
                    o.json(ShareJson.container(made));
                } else {
                    o.line("Container " + id + " (" + made.name() + ") made on " + n.node() + ", " + made.status()
                            + (made.devices().isEmpty() ? "" : ", sharing " + gpu + ":"));
                    made.devices().forEach((i, d) -> o.line("  dev" + i + ": " + d.value()));
                    ready.flatMap(ShareReadiness::driverVersion).filter(v -> v.matches("[0-9.]+")).ifPresent(v ->
                            o.line("In the container, install NVIDIA's user-space driver " + v + " without its kernel"
                                    + " module (NVIDIA-Linux-x86_64-" + v + ".run --no-kernel-module)."));
                }
                return 0;
            } catch (ShareService.Refused e) {
                o.error("gpuforge ct create: refused, nothing changed: " + e.getMessage());
                return 1;
            } catch (BackendException | HostException | PlanBlockedException | IllegalArgumentException e) {
                return failed("ct create", e);
            }
        }

        private boolean confirm(CliOutput o, PassthroughPlan p, HostTarget host) {
            if (!json.enabled()) {
                o.line("The GPU needs this host plan first:");
                p.edits().forEach(e -> e.diff().lines().forEach(o::line));
                p.commands().forEach(c -> o.line("$ " + c));
            }
            if (yes) {
                return true;
            }
            return services.confirm("Apply it to " + host.describe() + "?");
        }

        private String storage(NodeTarget n) throws BackendException {
            if (storage != null) {
                return storage;
            }
            return n.ctx().containers().diskStorages(n.session(), n.node()).stream().findFirst().orElseThrow(() ->
                    new IllegalArgumentException("the node has no storage for container disks: name one with"
                            + " --storage"));
        }
    }

    @Command(name = "add-gpu", mixinStandardHelpOptions = true, description = "Give a stopped container the GPU's"
            + " device entries (devN) it does not have yet.")
    static final class AddGpu extends CliCommand {
        @Parameters(index = "0", paramLabel = "CTID", description = "The container's id.")
        int vmid;
        @Mixin
        NodeOptions target = new NodeOptions();
        @Option(names = "--gpu", required = true, paramLabel = "BDF", description = "The GPU to share with it.")
        String gpu;

        AddGpu(CliServices services) {
            super(services);
        }

        @Override
        public Integer call() throws Exception {
            CliOutput o = services.output();
            try (NodeTarget n = target.open(services)) {
                ShareService shares = n.ctx().shares();
                ShareReadiness ready = shares.readiness(n.requireHost(), PciAddress.parse(gpu),
                        HostSource::refuseUnknownKey);
                ContainerInfo c = n.ctx().containers().addGpu(n.session(), n.node(), vmid, ready);
                if (json.enabled()) {
                    o.json(ShareJson.container(c));
                } else {
                    o.line("Container " + vmid + " (" + c.name() + ") shares " + gpu + ":");
                    c.devices().forEach((i, d) -> o.line("  dev" + i + ": " + d.value()));
                }
                return 0;
            } catch (ShareService.Refused e) {
                o.error("gpuforge ct add-gpu: refused, nothing changed: " + e.getMessage());
                return 1;
            } catch (BackendException | HostException | IllegalArgumentException e) {
                return failed("ct add-gpu", e);
            }
        }
    }

    /** One container and a task on it. */
    abstract static class OnCt extends CliCommand {
        @Parameters(index = "0", paramLabel = "CTID", description = "The container's id.")
        int vmid;
        @Mixin
        NodeOptions target = new NodeOptions();

        OnCt(CliServices services) {
            super(services);
        }

        abstract String verb();

        abstract TaskOutcome run(NodeTarget n) throws BackendException, InterruptedException;

        @Override
        public Integer call() throws Exception {
            CliOutput o = services.output();
            try (NodeTarget n = target.open(services)) {
                List<Integer> there = n.session().inventory().containersOn(n.node()).stream()
                        .map(io.gpuforge.domain.share.ContainerSummary::vmid).toList();
                if (!there.contains(vmid)) {
                    throw new IllegalArgumentException("no container " + vmid + " on " + n.node() + " (its containers: "
                            + (there.isEmpty() ? "none" : String.join(", ", there.stream().map(String::valueOf)
                            .toList())) + ")");
                }
                TaskOutcome out = run(n);
                if (json.enabled()) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("ct", n.node() + "/" + vmid);
                    m.put("ok", out.ok());
                    m.put("status", out.status());
                    m.put("log", out.log());
                    o.json(m);
                } else {
                    o.line(verb() + " " + n.node() + "/" + vmid + ": " + out.status());
                }
                return out.ok() ? 0 : 1;
            } catch (BackendException | IllegalArgumentException e) {
                return failed("ct " + verb(), e);
            }
        }
    }

    /** A start, clean shutdown or stop of a container: the action's name is the verb. */
    abstract static class Power extends OnCt {
        private final VmAction action;

        Power(CliServices services, VmAction action) {
            super(services);
            this.action = action;
        }

        String verb() {
            return action.json();
        }

        TaskOutcome run(NodeTarget n) throws BackendException, InterruptedException {
            return n.session().containerAction(n.node(), vmid, action, l -> { }, () -> false);
        }
    }

    @Command(name = "start", mixinStandardHelpOptions = true, description = "Start a container.")
    static final class Start extends Power {
        Start(CliServices s) {
            super(s, VmAction.START);
        }
    }

    @Command(name = "shutdown", mixinStandardHelpOptions = true, description = "Shut a container down cleanly.")
    static final class Shutdown extends Power {
        Shutdown(CliServices s) {
            super(s, VmAction.SHUTDOWN);
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true, description = "Stop a container at once.")
    static final class Stop extends Power {
        Stop(CliServices s) {
            super(s, VmAction.STOP);
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a stopped container and its"
            + " volumes.")
    static final class Delete extends OnCt {
        Delete(CliServices s) {
            super(s);
        }

        String verb() {
            return "delete";
        }

        TaskOutcome run(NodeTarget n) throws BackendException, InterruptedException {
            return n.session().deleteContainer(n.node(), vmid, l -> { }, () -> false);
        }
    }
}
