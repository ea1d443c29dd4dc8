package io.gpuforge.cli.diagnose;

import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.cli.common.EnglishWords;
import io.gpuforge.app.AppContext;
import io.gpuforge.app.diagnose.DiagnoseService;
import io.gpuforge.app.words.Words;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.HostSource;
import io.gpuforge.cli.common.HypervisorTarget;
import io.gpuforge.cli.common.VmTarget;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.domain.vm.VmRef;
import java.io.IOException;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.domain.diagnose.Collected;
import io.gpuforge.domain.diagnose.Diagnosis;
import io.gpuforge.domain.diagnose.Evidence;
import io.gpuforge.domain.diagnose.Finding;
import io.gpuforge.domain.diagnose.FixPlan;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code gpuforge diagnose --log FILE…}: why a GPU VM did not start, from the logs a user has; with {@code --vm} (and
 * a connection), from what its hypervisor kept of its last failed start as well.
 */
@Command(name = "diagnose", mixinStandardHelpOptions = true,
        description = {"Name the cause of a failed GPU VM start from its logs, with the lines that show it and the fix.",
                "Give a Proxmox task log, QEMU's or libvirt's error, the host's dmesg or journalctl -k, a guest's"
                        + " nvidia-smi or Device Manager text, or a forum post: prose, Markdown and timestamps around"
                        + " the lines are fine. Each log is read up to 8 MiB (a file's end, stdin's start).",
                "With --vm and a connection (--connection NAME, --pve URL, --libvirt URI), GPUForge fetches the log of"
                        + " the VM's last failed start and its configuration itself; what it could not read is listed.",
                "With --apply-fix the fix of the most likely cause is shown as a plan (the VM's configuration diff,"
                        + " the host's files), applied once you confirm (or --yes) and kept: --fixes lists the fixes"
                        + " applied, --rollback-fix ID undoes one."},
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {"0:a cause was found", "1:no log could be read", "2:usage",
                "3:no known cause (unknown)", "4:--vm: no failed start of the VM found (nothing to diagnose)"})
public final class DiagnoseCommand extends CliCommand {
    static final int UNKNOWN = 3;
    static final int NO_FAILED_START = 4;

    @Option(names = "--log", paramLabel = "FILE",
            description = "A log to read; repeat for several; - for stdin.")
    List<String> logs = new java.util.ArrayList<>();

    @Option(names = "--vm", paramLabel = "VM", description = "The VM whose start failed, by id or name: its"
            + " hypervisor's record of the start (the Proxmox task log) and its configuration are read.")
    String vm;

    @Option(names = "--apply-fix", description = "With --vm: show the fix of the most likely cause as a plan (the"
            + " VM's configuration diff, the host's file diffs and commands, what GPUForge leaves to you), ask, and"
            + " apply it: the VM's change, then the host's, journaled; the host's side over the node's host link.")
    boolean applyFix;

    @Option(names = "--yes", description = "With --apply-fix: do not ask for confirmation (the plan is still shown).")
    boolean yes;

    @Option(names = "--fixes", description = "List the fixes applied on the connection's VMs, newest first.")
    boolean fixes;

    @Option(names = "--rollback-fix", paramLabel = "ID", description = "Undo an applied fix: the VM's earlier values"
            + " written back (refused when the VM changed since), the host's journal rolled back.")
    String rollbackFix;

    @Option(names = "--lang", paramLabel = "en|zh-CN", description = "Language of the causes, their explanations and"
            + " fixes (default en; --json is always English).")
    String lang = "en";

    @Mixin
    HypervisorTarget target = new HypervisorTarget();

    DiagnoseCommand(CliServices services) {
        super(services);
    }

    @Override
    public Integer call() {
        CliOutput o = services.output();
        Diagnosis d;
        if (fixes || rollbackFix != null) {
            return fixes(o);
        }
        if (applyFix && vm == null) {
            o.error("gpuforge diagnose: --apply-fix needs the VM: --vm ID with its connection");
            return 2;
        }
        if (yes && !applyFix) {
            o.error("gpuforge diagnose: --yes goes with --apply-fix");
            return 2;
        }
        if (vm == null && target.present()) {
            o.error("gpuforge diagnose: " + target.describe() + " names where the VM is: give the VM with --vm");
            return 2;
        }
        if (vm == null && logs.isEmpty()) {
            o.error("gpuforge diagnose: give the logs (--log FILE) or the VM (--vm ID with --connection NAME)");
            return 2;
        }
        try {
            if (vm != null) {
                return vm(o);
            }
            d = services.standalone().diagnosis().files(logs, services::stdin);
        } catch (IllegalArgumentException | IllegalStateException | IOException | BackendException | HostException e) {
            return failed(o, e);
        }
        return report(o, d, true);
    }

    /** Prints the diagnosis (unless {@code print} is false); the exit code. */
    private int report(CliOutput o, Diagnosis d, boolean print) {
        d.collected().stream().flatMap(c -> c.problem().stream())
                .forEach(p -> o.error("gpuforge diagnose: " + EnglishWords.of(p)));
        if (d.collected().stream().noneMatch(Collected::read)) {
            return 1;
        }
        if (print && json.enabled()) {
            o.json(DiagnoseJson.of(d));
        } else if (print) {
            print(o, d);
        }
        return d.known() ? 0 : UNKNOWN;
    }

    /**
     * The VM's own evidence (and the logs given besides), over the connection the options name, diagnosed; with
     * --apply-fix its fix applied. The exit code.
     */
    private int vm(CliOutput o) throws IOException, BackendException, HostException {
        if (!target.present()) {
            throw new IllegalArgumentException("--vm needs the VM's connection: --connection NAME, --pve URL or"
                    + " --libvirt URI");
        }
        try (AppContext ctx = services.openContext()) {
            VmTarget t = target.vm(services, ctx, vm);
            ConnectionInfo c = t.connection();
            ConnectionSession session = t.session();
            VmRef ref = t.ref();
            Diagnosis d = ctx.diagnosis().vm(session, c, ref, ctx.hostLogs(), HostSource::refuseUnknownKey,
                    logs, services::stdin);
            if (logs.isEmpty() && !d.known() && DiagnoseService.noFailedStart(d)) {
                return noFailedStart(o, ref, d);
            }
            // with --apply-fix --json, the one JSON document is the fix's, the diagnosis in it
            int code = report(o, d, !(applyFix && json.enabled()));
            if (!applyFix || code == 1) {
                return code;
            }
            return new DiagnoseFixes(services, json.enabled(), yes).apply(ctx, c, ref, d);
        }
    }

    /**
     * A VM that never failed to start: said in one line, with what was read, instead of "Cause: unknown" over lines
     * that only looked relevant (its guest's own errors are not its start's).
     */
    private int noFailedStart(CliOutput o, VmRef ref, Diagnosis d) {
        List<String> read = d.collected().stream().filter(Collected::read).map(Collected::name).toList();
        String line = "no failed start found: VM " + ref.id() + " has none among the tasks of " + ref.node()
                + (read.isEmpty() ? "" : "; read " + String.join(", ", read)) + ". If it fails to start, diagnose it"
                + " then.";
        if (json.enabled()) {
            java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("vm", ref.id());
            m.put("node", ref.node());
            m.put("failed_start", false);
            m.put("read", read);
            o.json(m);
        } else {
            o.line(line);
        }
        return NO_FAILED_START;
    }

    /** --fixes and --rollback-fix, over the connection the options name. */
    private int fixes(CliOutput o) {
        if (!target.present()) {
            o.error("gpuforge diagnose: " + (fixes ? "--fixes" : "--rollback-fix") + " needs the connection:"
                    + " --connection NAME, --pve URL or --libvirt URI");
            return 2;
        }
        try (AppContext ctx = services.openContext()) {
            ConnectionInfo c = target.connection(services, ctx);
            DiagnoseFixes f = new DiagnoseFixes(services, json.enabled(), yes);
            return fixes ? f.list(ctx, c) : f.rollback(ctx, c, rollbackFix);
        } catch (IllegalArgumentException | IllegalStateException | IOException | BackendException | HostException e) {
            return failed(o, e);
        }
    }

    /** A failure worded for the user: a wrong argument is a usage error (2), anything else 1. */
    private static int failed(CliOutput o, Exception e) {
        o.error("gpuforge diagnose: " + e.getMessage());
        return e instanceof IllegalArgumentException ? 2 : 1;
    }

    private void print(CliOutput o, Diagnosis d) {
        Words words = new Words(lang.toLowerCase(Locale.ROOT).startsWith("zh")
                ? Locale.SIMPLIFIED_CHINESE : Locale.ENGLISH);
        if (!d.known()) {
            o.line("Cause: unknown (" + d.reason().map(words::text).orElse("no known cause matched") + ")");
            if (!d.relevant().isEmpty()) {
                o.line("Lines that looked relevant:");
                d.relevant().forEach(e -> o.line("  " + where(e) + "  " + e.text()));
            }
        } else {
            Finding first = d.causes().get(0);
            o.line("Cause: " + first.id() + ": " + words.text(first.title()));
            finding(o, first, words);
            for (Finding f : d.alsoSeen()) {
                o.line("");
                o.line("Also seen: " + f.id() + ": " + words.text(f.title()));
                finding(o, f, words);
            }
        }
        if (!json.quiet) {
            o.line("");
            for (Collected c : d.collected()) {
                if (c.read()) {
                    o.line("Read " + c.name() + " (" + c.source().id() + ", " + CliOutput.count(c.lines(), "line") + ", "
                            + size(c.bytesRead()) + (c.bytesSkipped() > 0 ? "; " + size(c.bytesSkipped())
                            + " not read, over the 8 MiB limit" : "") + ")");
                }
            }
        }
    }

    private static void finding(CliOutput o, Finding f, Words words) {
        o.line("Weight: " + words.text(f.weight().said()) + String.format(Locale.ROOT, " (score %.1f)",
                f.weight().score()));
        o.line("Evidence:");
        f.evidence().forEach(e -> o.line("  " + where(e) + "  " + e.text()));
        o.line("Why: " + words.text(f.explanation()));
        o.line("Fix: " + words.text(f.fix().text()));
        f.fix().plan().ifPresent(p -> plan(o, p, words));
    }

    private static void plan(CliOutput o, FixPlan p, Words words) {
        o.line("Plan:");
        p.kernelArguments().forEach(a -> o.line("  kernel argument: " + a));
        p.modprobe().forEach(m -> o.line("  /etc/modprobe.d: " + m));
        p.udevRules().forEach(r -> o.line("  /etc/udev/rules.d: " + r));
        for (FixPlan.VmEdit v : p.vmChanges()) {
            o.line("  VM (" + v.hypervisor() + "), " + words.text(v.description()) + ":");
            v.snippet().lines().forEach(l -> o.line("    " + l));
        }
        p.commands().forEach(c -> o.line("  $ " + c));
    }

    private static String where(Evidence e) {
        // a line from inside the guest is said so: anyone in the guest can write it
        return e.input() + ":" + e.line() + (e.origin() == io.gpuforge.domain.diagnose.Origin.GUEST ? " [guest]" : "");
    }

    private static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        if (bytes < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
        }
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024));
    }
}
