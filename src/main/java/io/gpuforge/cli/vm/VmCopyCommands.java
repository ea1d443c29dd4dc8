package io.gpuforge.cli.vm;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.app.desktop.ConsoleLauncher;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.CloneRequest;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.tasks.TaskOutcome;
import io.gpuforge.domain.vm.VmAction;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmInfo;
import io.gpuforge.domain.vm.VmRef;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.VmTarget;

/**
 * {@code gpuforge vm reboot|clone|template|config|console}: the rest of a VM page's actions, over the connection's
 * session as the window does them.
 */
final class VmCopyCommands {

    private VmCopyCommands() {
    }

    @Command(name = "reboot", mixinStandardHelpOptions = true, description = "Ask a VM's guest to reboot.")
    static final class Reboot extends VmLifecycleCommands.ActionOnVm {
        Reboot(CliServices s) {
            super(s, "reboot", VmAction.REBOOT);
        }
    }

    @Command(name = "clone", mixinStandardHelpOptions = true, description = {"Clone a VM or template as a new VM.",
            "Proxmox VE: a full clone (any VM) or --linked (a template; on the template's storage). libvirt: a full"
                    + " clone of a shut-off VM, its disks copied in their pool or into --storage."})
    static final class Clone extends VmLifecycleCommands.OnVm {
        @Parameters(index = "1", paramLabel = "NAME", description = "The new VM's name.")
        String name;
        @Option(names = "--linked", description = "A linked clone of a template (Proxmox VE) instead of a full copy.")
        boolean linked;
        @Option(names = "--storage", paramLabel = "STORAGE", description = "Where a full clone's disks go (a PVE"
                + " storage or a libvirt pool); the source's by default.")
        String storage;
        @Option(names = "--target-node", paramLabel = "NODE", description = "The node the clone goes to (Proxmox VE);"
                + " the source's by default.")
        String targetNode;

        Clone(CliServices s) {
            super(s);
        }

        @Override
        String verb() {
            return "clone";
        }

        @Override
        TaskOutcome run(AppContext ctx, ConnectionSession s, VmRef r) throws BackendException, InterruptedException {
            return s.cloneVm(new CloneRequest(r, name, Optional.ofNullable(targetNode), !linked,
                    Optional.ofNullable(storage)), line -> { }, () -> false);
        }
    }

    @Command(name = "template", mixinStandardHelpOptions = true, description = "Convert a stopped VM into a template"
            + " (Proxmox VE; this cannot be undone).")
    static final class Template extends VmLifecycleCommands.OnVm {
        Template(CliServices s) {
            super(s);
        }

        @Override
        String verb() {
            return "template";
        }

        @Override
        TaskOutcome run(AppContext ctx, ConnectionSession s, VmRef r) throws BackendException, InterruptedException {
            return s.convertToTemplate(r, line -> { }, () -> false);
        }
    }

    @Command(name = "config", mixinStandardHelpOptions = true, description = "Print a VM's configuration as the"
            + " backend keeps it (Proxmox VE's key: value lines, libvirt's domain XML); a password is masked.")
    static final class Config extends OneVmCommand {
        Config(CliServices services) {
            super(services);
        }

        @Override
        String verb() {
            return "config";
        }

        @Override
        int run(AppContext ctx, VmTarget t) throws BackendException {
            VmRef ref = t.ref();
            VmConfig cfg = t.session().readConfig(ref);
            if (json.enabled()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("vm", ref.node() + "/" + ref.id());
                m.put("version", cfg.version());
                if (cfg.settings().isEmpty()) {
                    m.put("xml", cfg.document());
                } else {
                    Map<String, String> shown = new TreeMap<>(cfg.settings());
                    shown.computeIfPresent("cipassword", (k, v) -> "********");
                    m.put("config", shown);
                }
                services.output().json(m);
            } else {
                cfg.document().lines().map(l -> l.startsWith("cipassword:") ? "cipassword: ********" : l)
                        .forEach(services.output()::line);
            }
            return 0;
        }
    }

    @Command(name = "console", mixinStandardHelpOptions = true, description = "Open a VM's console: Proxmox VE's noVNC"
            + " console in the browser, virt-viewer for libvirt.")
    static final class Console extends OneVmCommand {
        @Option(names = "--print", description = "Print the URL or the command instead of starting it.")
        boolean print;

        Console(CliServices services) {
            super(services);
        }

        @Override
        String verb() {
            return "console";
        }

        @Override
        int run(AppContext ctx, VmTarget t) throws BackendException, IOException {
            ConnectionInfo c = t.connection();
            VmRef ref = t.ref();
            String name = t.session().inventory().vm(ref).map(VmInfo::name).orElse(ref.id());
            ConsoleLauncher.Launch l = print ? ctx.consoles().plan(c, ref, name) : ctx.consoles().open(c, ref, name);
            if (json.enabled()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("vm", ref.node() + "/" + ref.id());
                m.put("command", l.command());
                l.url().ifPresent(u -> m.put("url", u.toString()));
                m.put("started", !print);
                services.output().json(m);
            } else {
                services.output().line(l.url().map(Object::toString).orElse(String.join(" ", l.command())));
            }
            return 0;
        }
    }
}
