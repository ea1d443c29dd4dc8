package io.gpuforge.app.vmcreate;

import io.gpuforge.app.host.HostKeyPrompt;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.app.vmcreate.VmProvisioning.Request;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.vm.CloudConfigs;
import io.gpuforge.domain.vm.CloudInit;
import io.gpuforge.domain.passthrough.ConfigChange;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.tasks.TaskListener;
import io.gpuforge.domain.vm.VmConfig;
import io.gpuforge.domain.vm.VmRef;
import io.gpuforge.domain.vm.VmTemplate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * How a template's user-data reaches a new Proxmox VE VM, for {@link VmProvisioning}: as a snippet over the node's
 * host link ({@code cicustom}), or, where it cannot be written, over the guest agent after the first boot
 * ({@link FirstBootProvisioning}): at once when the VM is started, else when GPUForge is asked to
 * ({@code gpuforge vm provision}, the wizard's "Run the template's setup"). Each way is said in a note and a line.
 */
final class VmUserData {

    /**
     * What the snippet step left: the VM's configuration, whether the user-data still has to go in, and the
     * snippets written (to remove once the first boot reported done).
     */
    record Step(VmConfig config, boolean afterFirstBoot, Optional<CloudInitSnippets.Written> snippets) {
    }

    private final CloudInitSnippets snippets;
    private final FirstBootProvisioning firstBoot;

    VmUserData(CloudInitSnippets snippets, FirstBootProvisioning firstBoot) {
        this.snippets = snippets;
        this.firstBoot = firstBoot;
    }

    /** The whole user-data of the request's VM (host name, user, then the template's cloud-config). */
    static String of(Request r) {
        return CloudConfigs.userData(r.name(), VmProvisioning.spec(r).options().cloudInit().orElseThrow());
    }

    /** The template's user-data as a snippet ({@code cicustom}); where it cannot be written, PVE's own fields now. */
    Step snippet(Request r, ConnectionSession s, VmRef vm, VmConfig cfg, List<String> notes, TaskListener progress,
                 HostKeyPrompt hostKeys) throws BackendException {
        String note;
        try {
            CloudInitSnippets.Written w = snippets.write(r.target().connection(), r.target().node(),
                    s.storages(r.target().node()), vm, r.name(), of(r), hostKeys);
            VmConfig after = s.writeConfig(vm, new ConfigChange.Settings(Map.of("cicustom",
                    Optional.of(w.cicustom()))), cfg.version());
            note = "Cloud-init: the template's user-data was written over the SSH host link (" + w.host() + ") to "
                    + w.path() + " (root-only, 0600) and set as cicustom " + w.cicustom() + "; the network comes from"
                    + " ipconfig0. It holds the password's hash and the template's secrets: GPUForge removes it once"
                    + " the VM's first boot reported done, and with the VM";
            progress.line(note);
            notes.add(note);
            w.shared().ifPresent(why -> {
                String warn = "Cloud-init: " + why + "; the user-data with its secrets lies there until GPUForge"
                        + " removes it after the first boot";
                progress.line(warn);
                notes.add(warn);
            });
            return new Step(after, false, Optional.of(w));
        } catch (CloudInitSnippets.NotWritten e) {
            note = "Cloud-init: Proxmox VE's own fields (ciuser, sshkeys, ipconfig0) for the first boot; the"
                    + " template's user-data could not be written as a snippet (" + e.getMessage() + "), so it goes"
                    + " to the guest's cloud-init over the guest agent after the first boot";
            progress.line(note);
            notes.add(note);
            return new Step(cfg, true, Optional.empty());
        }
    }

    /** The note when the VM was not started: the setup runs when GPUForge starts it and is asked to. */
    static String notStarted(Request r, VmRef vm) {
        return "Cloud-init: the template's setup runs over the guest agent after the first boot, once GPUForge starts"
                + " VM " + vm.id() + " and runs it: the wizard's \"Run the template's setup\", or " + later(r, vm);
    }

    /** Waits for the guest agent of the started VM and runs the template's user-data in it; the notes say how. */
    FirstBootProvisioning.Outcome afterBoot(Request r, ConnectionSession s, VmRef vm, List<String> notes,
                                            TaskListener progress, BooleanSupplier cancelled) throws InterruptedException {
        FirstBootProvisioning.Outcome o = firstBoot.run(s, vm, of(r), VmSecrets.of(r), later(r, vm), progress,
                cancelled);
        notes.add(o.ok() ? "Cloud-init: the template's user-data was provisioned over the guest agent after the first"
                + " boot (" + FirstBootProvisioning.USER_DATA_FILE + " in VM " + vm.id() + "; cloud-init single ran "
                + String.join(", ", o.modulesRun()) + ")" : "Cloud-init over the guest agent after the first boot did"
                + " not finish: " + o.message());
        return o;
    }

    /** The command that runs the template's setup in the VM later, with the request's values. */
    static String later(Request r, VmRef vm) {
        ConnectionInfo c = r.target().connection();
        StringBuilder cmd = new StringBuilder("gpuforge vm provision ");
        cmd.append(CommandHints.target(c));
        cmd.append(" --node ").append(vm.node()).append(" --template ").append(quoted(r.template().id()));
        if (r.cloneOf().isEmpty() && r.cloudInit().isPresent()) {
            CloudInit ci = r.cloudInit().get();
            cmd.append(" --user ").append(quoted(ci.user()));
            if (!ci.sshKeys().isEmpty()) {
                cmd.append(" --ssh-key FILE");
            }
            if (ci.passwordHash().isPresent()) {
                cmd.append(" --password-stdin");
            }
        }
        List<String> secret = new ArrayList<>();
        for (VmTemplate.Variable v : r.template().variables()) {
            if (v.secret()) {
                secret.add(v.name());
            } else if (r.variables().containsKey(v.name())) {
                cmd.append(" --var ").append(v.name()).append('=').append(quoted(r.variables().get(v.name())));
            }
        }
        if (!secret.isEmpty()) { // never on a command line: ps and the shell's history would show them
            cmd.append(" --var-file FILE");
        }
        cmd.append(' ').append(vm.id());
        if (!secret.isEmpty()) {
            cmd.append("   (FILE: yours alone, chmod 600, with a line NAME=VALUE for ").append(String.join(", ", secret))
                    .append(')');
        }
        return cmd.toString();
    }

    private static String quoted(String s) {
        return CommandHints.quoted(s);
    }
}
