package io.gpuforge.cli.passthrough;

import io.gpuforge.cli.common.EnglishWords;
import io.gpuforge.app.passthrough.PassthroughProposal;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The whole passthrough plan as {@code gpuforge passthrough} shows it before the first change, in text or JSON: the
 * host's diffs and commands, the reboot, the VM's changes exactly as its hypervisor will write them, and the digest
 * that names this plan ({@code --digest} applies it and nothing else).
 */
final class ProposalText {

    private ProposalText() {
    }

    static void print(CliOutput o, PassthroughProposal p) {
        o.line("Plan " + p.digest() + ": " + p.device() + " to VM " + p.vm().id() + " (" + p.vmName() + ") on "
                + p.vm().node());
        if (p.hostPlan().isPresent()) {
            PassthroughPlan h = p.hostPlan().get();
            o.line("On " + p.host() + ":");
            for (PassthroughPlan.FileEdit e : h.edits()) {
                o.out().print(e.diff());
            }
            for (String c : h.commands()) {
                o.line("$ " + c);
            }
            h.notes().forEach(n -> o.line("Note: " + EnglishWords.of(n)));
        } else {
            o.line("On " + p.host() + ": nothing to change (" + stage(p) + ").");
        }
        o.line(p.reboot() ? "Then " + p.vm().node() + " reboots, and the host is verified." : "No reboot.");
        o.line("VM " + p.vm().id() + " (" + p.vmName() + "):");
        p.vmChanges().forEach(c -> o.line("  " + c));
        p.kept().forEach(k -> o.line("  keeps its GPU " + k));
        o.line("Plan digest: " + p.digest());
        o.out().flush();
    }

    static Map<String, Object> json(PassthroughProposal p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("digest", p.digest());
        m.put("host", p.host());
        m.put("device", p.device().toString());
        m.put("vm", p.vm().id());
        m.put("vm_name", p.vmName());
        m.put("node", p.vm().node());
        m.put("state_before", stage(p));
        m.put("host_plan", p.hostPlan().map(ProposalText::hostJson).orElse(null));
        m.put("reboot", p.reboot());
        m.put("vm_changes", p.vmChanges());
        m.put("vm_version", p.vmVersion());
        m.put("keeps", p.kept());
        return m;
    }

    /** The host's part: files, commands, notes (the VM's changes are the proposal's own, as the backend makes them). */
    private static Map<String, Object> hostJson(PassthroughPlan h) {
        Map<String, Object> m = new LinkedHashMap<>(PlanCommand.toJson(h));
        m.remove("vm_changes");
        return m;
    }

    static String stage(PassthroughProposal p) {
        return p.stage().name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
