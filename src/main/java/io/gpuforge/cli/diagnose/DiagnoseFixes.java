package io.gpuforge.cli.diagnose;

import io.gpuforge.cli.common.EnglishWords;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.diagnose.FixService;
import io.gpuforge.app.passthrough.ApplyProgressLines;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.HostSource;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.diagnose.AppliedFix;
import io.gpuforge.domain.diagnose.Diagnosis;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.vm.VmRef;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fix side of {@code gpuforge diagnose}: {@code --apply-fix} shows the fix of the most likely cause as a plan (the
 * VM's configuration diff, the host's file diffs and commands, what it leaves to the user), asks (or {@code --yes}),
 * applies it and says what it checked and what not; {@code --fixes} lists those applied on a connection,
 * {@code --rollback-fix ID} undoes one.
 */
final class DiagnoseFixes {

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());

    private final CliServices services;
    private final boolean json;
    private final boolean yes;

    DiagnoseFixes(CliServices services, boolean json, boolean yes) {
        this.services = services;
        this.json = json;
        this.yes = yes;
    }

    /** Proposes, shows, asks and applies the fix of {@code d}'s first cause; the exit code. */
    int apply(AppContext ctx, ConnectionInfo c, VmRef vm, Diagnosis d) throws BackendException, HostException {
        CliOutput o = services.output();
        if (!d.known()) {
            o.error("gpuforge diagnose: no known cause, so no fix to apply");
            return DiagnoseCommand.UNKNOWN;
        }
        ConnectionSession s = ctx.sessions().of(c);
        FixService.Proposal p = ctx.fixes().propose(s, c, vm, d.causes().get(0), HostSource::refuseUnknownKey);
        // the plan is shown before it is confirmed, always: with --json on stderr (stdout keeps its one document)
        if (!json) {
            print(o::line, p);
        } else if (!yes) {
            print(o::error, p);
        }
        if (p.changesNothing()) {
            o.error("gpuforge diagnose: the fix of " + p.cause() + " changes nothing on VM " + vm.id() + " or "
                    + vm.node() + ": it is there already, or GPUForge cannot make it (see above)");
            return 0;
        }
        if (!yes && !services.confirm("Apply this fix to VM " + vm.id() + " and its host " + vm.node() + "?")) {
            o.error("gpuforge diagnose: nothing was changed");
            return 1;
        }
        FixService.Result r = ctx.fixes().apply(s, p, new ApplyProgressLines(o::error, ApplyProgressLines.Style.TEXT,
                !json), HostSource::refuseUnknownKey);
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("fix", r.fix().id());
            m.put("cause", r.fix().cause());
            m.put("node", r.fix().node());
            m.put("vm", r.fix().vm());
            m.put("hostJournal", r.fix().hostJournal().orElse(null));
            m.put("rebootNeeded", r.rebootNeeded());
            m.put("verified", EnglishWords.of(r.verified()));
            m.put("notChecked", EnglishWords.of(r.notChecked()));
            m.put("notes", EnglishWords.of(r.notes()));
            m.put("plan", plan(p));
            m.put("diagnosis", DiagnoseJson.of(d));
            o.json(m);
            return 0;
        }
        o.line("");
        o.line("Applied fix " + r.fix().id() + " (" + r.fix().cause() + ").");
        r.verified().forEach(v -> o.line("  checked: " + EnglishWords.of(v)));
        r.notChecked().forEach(n -> o.line("  not checked: " + EnglishWords.of(n)));
        r.notes().forEach(n -> o.line("  note: " + EnglishWords.of(n)));
        o.line("Undo it with: gpuforge diagnose --rollback-fix " + r.fix().id() + " --connection \"" + c.name() + "\"");
        return 0;
    }

    private static void print(java.util.function.Consumer<String> o, FixService.Proposal p) {
        o.accept("");
        o.accept("Fix plan for " + p.cause() + " on VM " + p.vm().id() + " (" + p.vm().node() + "):");
        p.vmFix().filter(f -> !f.changesNothing()).ifPresent(f -> {
            o.accept("The VM's configuration:");
            f.diff().lines().forEach(l -> o.accept("  " + l));
        });
        p.host().filter(h -> !h.hostChangesNothing()).ifPresent(h -> {
            o.accept("On the host " + p.vm().node() + " (journaled; a reboot makes it take effect"
                    + (h.rebootNeeded() ? "" : " where needed") + "):");
            for (PassthroughPlan.FileEdit e : h.edits()) {
                e.diff().lines().forEach(l -> o.accept("  " + l));
            }
            h.commands().forEach(cmd -> o.accept("  $ " + cmd));
        });
        p.notDone().forEach(n -> o.accept("Note: " + EnglishWords.of(n)));
    }

    /** The plan that was applied, as JSON: the VM's diff, the host's file diffs and commands, what was not done. */
    private static Map<String, Object> plan(FixService.Proposal p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("vmDiff", p.vmFix().filter(f -> !f.changesNothing()).map(f -> f.diff()).orElse(null));
        m.put("hostFiles", p.host().filter(h -> !h.hostChangesNothing()).map(h -> h.edits().stream()
                .map(e -> e.diff()).toList()).orElse(List.of()));
        m.put("hostCommands", p.host().filter(h -> !h.hostChangesNothing()).map(h -> h.commands())
                .orElse(List.of()));
        m.put("notDone", EnglishWords.of(p.notDone()));
        return m;
    }

    /** The fixes applied on the connection's VMs, newest first. */
    int list(AppContext ctx, ConnectionInfo c) throws BackendException {
        List<AppliedFix> fixes = ctx.fixes().applied(c);
        CliOutput o = services.output();
        if (json) {
            o.json(fixes.stream().map(f -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("fix", f.id());
                m.put("at", f.at().toString());
                m.put("node", f.node());
                m.put("vm", f.vm());
                m.put("cause", f.cause());
                m.put("hostJournal", f.hostJournal().orElse(null));
                m.put("state", f.rolledBack() ? "rolled-back" : "applied");
                return m;
            }).toList());
            return 0;
        }
        if (fixes.isEmpty()) {
            o.line("No fix was applied on " + c.name() + ".");
        }
        for (AppliedFix f : fixes) {
            o.line(f.id() + "  " + WHEN.format(f.at()) + "  VM " + f.vm() + " on " + f.node() + "  " + f.cause()
                    + "  " + (f.rolledBack() ? "rolled back" : "applied"));
        }
        return 0;
    }

    /** Rolls back the fix {@code id} on its VM and host. */
    int rollback(AppContext ctx, ConnectionInfo c, String id) throws BackendException, HostException {
        AppliedFix f = ctx.fixes().rollback(ctx.sessions().of(c), c, id, new ApplyProgressLines(
                services.output()::error, ApplyProgressLines.Style.TEXT, !json), HostSource::refuseUnknownKey);
        if (json) {
            o().json(Map.of("fix", f.id(), "state", "rolled-back"));
        } else {
            o().line("Rolled back fix " + f.id() + ": " + (f.vmChange().isPresent() ? "VM " + f.vm()
                    + "'s configuration restored" : "") + (f.vmChange().isPresent() && f.hostJournal().isPresent()
                    ? "; " : "") + f.hostJournal().map(j -> "journal " + j + " rolled back on " + f.node())
                    .orElse("") + ".");
        }
        return 0;
    }

    private CliOutput o() {
        return services.output();
    }
}
