package io.gpuforge.cli.passthrough;

import io.gpuforge.app.host.HostTarget;
import io.gpuforge.app.passthrough.PassthroughService;
import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.domain.passthrough.ApplyOutcome;
import io.gpuforge.app.passthrough.ApplyProgressLines;
import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.domain.host.HostChangeException;
import io.gpuforge.domain.host.HostChangeState;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.host.HostException;
import io.gpuforge.domain.host.JournalState;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import io.gpuforge.domain.pci.PciAddress;
import io.gpuforge.domain.passthrough.PlanBlockedException;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.HostSource;

/** {@code gpuforge apply}: plans, shows the plan, and applies it after confirmation (or --yes). */
@Command(name = "apply", mixinStandardHelpOptions = true,
        description = "Apply the passthrough plan for a device on the host (backups, journal, rollback).")
public final class ApplyCommand extends CliCommand {
    @Mixin
    PassthroughHost where = new PassthroughHost();

    @Mixin
    PlanFlags plan = new PlanFlags();

    @Option(names = "--yes", description = "Do not ask for confirmation.")
    boolean yes;

    ApplyCommand(CliServices services) {
        super(services);
    }

    /** The apply's steps on stderr (not with --quiet; a failure always), as every command shows them. */
    static ApplyProgress progress(CliOutput o, boolean shown) {
        return new ApplyProgressLines(o::error, ApplyProgressLines.Style.TEXT, shown);
    }

    @Override
    public Integer call() throws IOException {
        CliOutput o = services.output();
        HostTarget target = null;
        PassthroughService service = null;
        PassthroughHost.Opened h = null;
        try {
            h = where.change(services);
            HostTarget host = h.target();
            target = host;
            service = h.passthrough();
            PciAddress device = PciAddress.parse(plan.device);
            Optional<PassthroughService.Applied> done = h.passthrough().apply(host, device,
                    plan.options(), p -> confirm(o, p, host), progress(o, !json.quiet), HostSource::refuseUnknownKey);
            if (done.isEmpty()) {
                o.error("gpuforge apply: not applied.");
                return 1;
            }
            if (!json.enabled() && done.get().plan().hostChangesNothing()) {
                PlanCommand.print(o, done.get().plan(), false);
            }
            report(o, done.get().outcome(), json.enabled(), done.get().rebootNeeded());
            return 0;
        } catch (HostChangeException e) {
            if (detached(e)) {
                o.error("gpuforge apply: " + e.getMessage());
                return afterTheCut(o, service, target);
            }
            failed(o, "gpuforge apply: ", e, json.enabled());
            return 1;
        } catch (HostException | BackendException e) {
            o.error("gpuforge apply: " + e.getMessage());
            return 1;
        } catch (PlanBlockedException e) {
            o.error("gpuforge apply: " + e.getMessage() + " (see gpuforge check --device " + plan.device + ")");
            return 1;
        } catch (IllegalArgumentException e) {
            o.error("gpuforge apply: " + e.getMessage());
            return 2;
        } finally {
            if (h != null) {
                h.close();
            }
        }
    }

    /** The connection was lost while the commit ran on the host: it goes on there by itself. */
    private static boolean detached(HostChangeException e) {
        return e.host().flatMap(HostChangeState::journal).map(j -> j == JournalState.COMMITTING).orElse(false);
    }

    /** Seconds to wait before each try to reach the host again after a cut: 3 tries over about 30 s. */
    private static final int[] RECONNECT_AFTER = {3, 9, 18};

    /**
     * Reaches the host again through the same login ({@code target}, as given on the command line; 3 tries over about 30 s) to learn how the commit ended, and
     * prints that end; otherwise says how to ask later. The exit status is 0 only when it ended fully applied.
     */
    private int afterTheCut(CliOutput o, PassthroughService service, HostTarget target) {
        String last = "";
        for (int wait : RECONNECT_AFTER) {
            try {
                Thread.sleep(wait * 1000L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return askLater(o, "interrupted");
            }
            try {
                PassthroughService.ApplyStatus s = service.applyStatus(target,
                        HostSource::refuseUnknownKey);
                if (s.kind() != PassthroughService.ApplyStatus.Kind.RUNNING) {
                    o.error("gpuforge apply: reached the host again; the commit has ended:");
                    int code = RollbackCommand.print(o, s, json.enabled());
                    return s.kind() == PassthroughService.ApplyStatus.Kind.APPLIED ? 0 : Math.max(code, 1);
                }
                last = "the commit is still running";
            } catch (HostException e) {
                last = e.getMessage();
            }
        }
        return askLater(o, last);
    }

    private static int askLater(CliOutput o, String why) {
        o.error("gpuforge apply: the end of the commit is not known yet (" + why + "). Ask later with 'gpuforge rollback"
                + " --status' and the same host options: it says fully applied, untouched (restored), still running,"
                + " or interrupted (then run gpuforge rollback).");
        return 1;
    }

    /** Shows the plan and asks, unless --yes; with --json the plan is not printed (stdout is the result). */
    private boolean confirm(CliOutput o, PassthroughPlan p, HostTarget target) {
        return PlanCommand.confirm(services, p, json.enabled(), yes, "Apply these changes to " + target.describe() + "?");
    }

    private static String name(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The message on stderr; with --json also where the host was left, item by item, on stdout. */
    static void failed(CliOutput o, String prefix, HostChangeException e, boolean json) {
        o.error(prefix + e.getMessage());
        if (json && e.host().isPresent()) {
            HostChangeState s = e.host().get();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("status", "failed");
            m.put("error", e.getMessage());
            m.put("files_restored", s.filesRestored());
            m.put("files_not_restored", s.filesNotRestored());
            m.put("commands_rerun", s.commandsRerun());
            m.put("commands_failed", s.commandsFailed());
            m.put("commands_pending", s.commandsPending());
            m.put("journal_state", s.journal().map(ApplyCommand::name).orElse(null));
            o.json(m);
        }
    }

    static void report(CliOutput o, ApplyOutcome r, boolean json, boolean reboot) {
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("journal", r.journalId());
            m.put("status", name(r.status()));
            m.put("files", r.filesChanged());
            m.put("commands_run", r.commandsRun());
            m.put("commands_not_run", r.commandsNotRun());
            m.put("backup_dir", r.backupDir().orElse(null));
            m.put("reboot", reboot && r.status() == ApplyOutcome.Status.APPLIED);
            o.json(m);
            return;
        }
        switch (r.status()) {
            case NOTHING_TO_DO:
                o.line("Nothing to do: the host already matches the plan (" + r.journalId() + ").");
                break;
            case APPLIED:
                o.line("Applied " + r.journalId() + ": " + CliOutput.count(r.filesChanged().size(), "file") + " changed; backups in "
                        + r.backupDir().orElse("?"));
                break;
            default:
                o.line("Rolled back " + r.journalId() + ": " + CliOutput.count(r.filesChanged().size(), "file") + " restored.");
        }
        r.commandsRun().forEach(c -> o.line("ran: " + c));
        r.commandsNotRun().forEach(c -> o.line("to run on the host (sysroot, not run): " + c));
        if (reboot && r.status() == ApplyOutcome.Status.APPLIED) {
            o.line("Reboot the host, then run: gpuforge verify");
        }
    }
}
