package io.gpuforge.cli.vm;

import io.gpuforge.app.AppContext;
import io.gpuforge.app.vmcreate.SnippetCleanup;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.vm.VmRef;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.VmTarget;

/**
 * {@code gpuforge vm remove-snippet VM [--now] (--pve URL | --connection NAME) [--node N] [--json]}: the template's
 * user-data snippet GPUForge left on a Proxmox VE node (it holds the password's hash and the template's secrets)
 * removed once the VM's first boot reported done (the guest agent's {@code cloud-init status --wait}), or at once
 * with {@code --now}. A VM without one is said so, exit 0.
 */
@Command(name = "remove-snippet", mixinStandardHelpOptions = true, description = "Remove the cloud-init snippet with the"
        + " template's secrets that GPUForge wrote for a Proxmox VE VM: once its first boot reported done (over the"
        + " guest agent), or at once with --now.")
final class VmSnippetCommand extends OneVmCommand {

    @Option(names = "--now", description = "Remove it now, without waiting for the first boot.")
    boolean now;

    VmSnippetCommand(CliServices services) {
        super(services);
    }

    @Override
    String verb() {
        return "remove-snippet";
    }

    @Override
    int run(AppContext ctx, VmTarget on) throws BackendException, InterruptedException {
        ConnectionInfo c = on.connection();
        VmRef ref = on.ref();
        Optional<SnippetCleanup.Pending> p = ctx.provisioning().snippets().pending(c, ref);
        Optional<SnippetCleanup.Outcome> o = Optional.empty();
        if (p.isPresent()) {
            SnippetCleanup cleanup = ctx.provisioning().snippets();
            o = Optional.of(now ? cleanup.now(p.get(), this::line, (h, t, f) -> false)
                    : cleanup.afterFirstBoot(p.get(), this::line, () -> false, (h, t, f) -> false));
        }
        if (json.enabled()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("vm", ref.node() + "/" + ref.id());
            m.put("snippet", p.map(SnippetCleanup.Pending::userVolume).orElse(null));
            m.put("removed", o.map(SnippetCleanup.Outcome::removed).orElse(false));
            m.put("message", o.map(SnippetCleanup.Outcome::message).orElse("VM " + ref.id() + " has no cloud-init"
                    + " snippet of GPUForge's"));
            services.output().json(m);
        } else if (p.isEmpty()) {
            services.output().line("VM " + ref.id() + " has no cloud-init snippet of GPUForge's (cicustom names"
                    + " none)");
        }
        return o.map(SnippetCleanup.Outcome::removed).orElse(true) ? 0 : 1;
    }

    private void line(String text) {
        if (json.progress()) {
            services.output().line(text);
        }
    }
}
