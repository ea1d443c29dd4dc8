package io.gpuforge.cli.vm;

import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.app.vmcreate.SnippetCleanup;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.HypervisorTarget;
import io.gpuforge.cli.common.VmTarget;

/** {@code gpuforge vm list|start|shutdown|stop|delete} ({@link VmCopyCommands}: reboot, clone, template, config): over the connection's session, as the window does it. */
final class VmLifecycleCommands {

    private VmLifecycleCommands() {
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the VMs (and templates) of a connection.")
    static final class ListVms extends CliCommand {
        @Mixin
        HypervisorTarget target = new HypervisorTarget();

        ListVms(CliServices services) {
            super(services);
        }

        @Override
        public Integer call() throws Exception {
            try (AppContext ctx = VmCommand.context(services)) {
                var vms = ctx.sessions().of(target.connection(services, ctx)).inventory().vms().stream()
                        .filter(v -> target.node == null || v.ref().node().equals(target.node)).toList();
                if (json.enabled()) {
                    services.output().json(Map.of("vms", vms.stream().map(ListVms::json).toList()));
                } else {
                    vms.forEach(v -> services.output().line(String.format(Locale.ROOT, "%-12s %-8s %-28s %-8s %3d vCPU %7d MiB%s",
                            v.ref().node(), v.ref().id(), v.name(), v.state().name().toLowerCase(Locale.ROOT), v.vcpus(),
                            v.memoryBytes() >> 20, v.template() ? "  template" : "")));
                }
                return 0;
            } catch (BackendException | IllegalArgumentException e) {
                return failed("vm list", e);
            }
        }

        static Map<String, Object> json(VmInfo v) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("node", v.ref().node());
            m.put("id", v.ref().id());
            m.put("name", v.name());
            m.put("state", v.state().name().toLowerCase(Locale.ROOT));
            m.put("template", v.template());
            m.put("vcpus", v.vcpus());
            m.put("memoryMiB", v.memoryBytes() >> 20);
            return m;
        }
    }

    /** One VM and an action on it: a task, its outcome printed. */
    abstract static class OnVm extends OneVmCommand {
        OnVm(CliServices services) {
            super(services);
        }

        abstract TaskOutcome run(AppContext ctx, ConnectionSession s, VmRef ref)
                throws BackendException, InterruptedException;

        @Override
        final int run(AppContext ctx, VmTarget on) throws BackendException, InterruptedException {
            VmRef ref = on.ref();
            TaskOutcome out = run(ctx, on.session(), ref);
            if (json.enabled()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("vm", ref.node() + "/" + ref.id());
                m.put("ok", out.ok());
                m.put("status", out.status());
                out.created().ifPresent(c -> m.put("created", c.node() + "/" + c.id()));
                m.put("log", out.log());
                services.output().json(m);
            } else {
                services.output().line(verb() + " " + ref.node() + "/" + ref.id() + ": " + out.status()
                        + out.created().map(c -> " (new VM " + c.node() + "/" + c.id() + ")").orElse(""));
            }
            return out.ok() ? 0 : 1;
        }
    }

    /** A subcommand that is one VM action, named as the user types it. */
    abstract static class ActionOnVm extends OnVm {
        private final String verb;
        private final VmAction action;

        ActionOnVm(CliServices s, String verb, VmAction action) {
            super(s);
            this.verb = verb;
            this.action = action;
        }

        String verb() {
            return verb;
        }

        TaskOutcome run(AppContext ctx, ConnectionSession s, VmRef r) throws BackendException, InterruptedException {
            return s.vmAction(r, action, line -> { }, () -> false);
        }
    }

    @Command(name = "start", mixinStandardHelpOptions = true, description = "Start a VM.")
    static final class Start extends ActionOnVm {
        Start(CliServices s) {
            super(s, "start", VmAction.START);
        }

        /**
         * Starts the VM; where GPUForge's user-data snippet (the template's secrets) is still on the node, says how
         * to remove it once the first boot is done (waiting for it here could take an hour).
         */
        @Override
        TaskOutcome run(AppContext ctx, ConnectionSession s, VmRef r) throws BackendException, InterruptedException {
            TaskOutcome out = super.run(ctx, s, r);
            if (out.ok()) {
                ctx.provisioning().snippets().pending(s.connection(), r).ifPresent(p -> services.output().error(
                        "note: the cloud-init snippet " + p.userVolume() + " with the template's secrets is still on "
                        + r.node() + "; remove it once the first boot is done: " + SnippetCleanup.later(p)));
            }
            return out;
        }
    }

    @Command(name = "shutdown", mixinStandardHelpOptions = true, description = "Ask a VM's guest to shut down (ACPI).")
    static final class Shutdown extends ActionOnVm {
        Shutdown(CliServices s) {
            super(s, "shutdown", VmAction.SHUTDOWN);
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true, description = "Power a VM off at once.")
    static final class Stop extends ActionOnVm {
        Stop(CliServices s) {
            super(s, "stop", VmAction.STOP);
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a stopped VM and its disks.")
    static final class Delete extends OnVm {
        Delete(CliServices s) {
            super(s);
        }

        String verb() {
            return "delete";
        }

        /** The VM, then the cloud-init snippets GPUForge wrote for it (they hold the template's secrets). */
        TaskOutcome run(AppContext ctx, ConnectionSession s, VmRef r) throws BackendException, InterruptedException {
            return ctx.provisioning().snippets().deleteVm(s.connection(), r, line -> {
                if (json.progress()) {
                    super.services.output().line(line);
                }
            }, () -> false, (host, type, fingerprint) -> false);
        }
    }
}
