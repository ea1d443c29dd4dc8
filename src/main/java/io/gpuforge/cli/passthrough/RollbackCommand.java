package io.gpuforge.cli.passthrough;

import io.gpuforge.app.passthrough.PassthroughService;
import io.gpuforge.app.passthrough.PlanHistory;
import io.gpuforge.cli.common.CliCommand;
import io.gpuforge.domain.BackendException;
import io.gpuforge.domain.passthrough.ApplyOutcome;
import io.gpuforge.domain.host.HostChangeException;
import io.gpuforge.domain.host.HostException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import io.gpuforge.cli.common.CliOutput;
import io.gpuforge.cli.common.CliServices;
import io.gpuforge.cli.common.HostSource;

/**
 * {@code gpuforge rollback}: restores every file of the last apply byte for byte and re-runs its refresh commands;
 * after a rollback that did not finish, running it again finishes the job. With {@code --status} it changes nothing
 * and says where the last apply stands (after a cut connection: how its detached commit ended).
 */
@Command(name = "rollback", mixinStandardHelpOptions = true,
        description = "Undo the last apply (or an interrupted one): files restored byte for byte.",
        exitCodeListHeading = "Exit codes:%n",
        exitCodeList = {"0:ok (--status: applied, untouched or rolled back)", "1:error (--status: interrupted)",
                        "2:usage", "3:--status: the apply is still running"})
public final class RollbackCommand extends CliCommand {
    @Mixin
    PassthroughHost where = new PassthroughHost();

    @Option(names = "--id", paramLabel = "ID", description = "The journal or plan id to roll back (default: the last).")
    String id;

    @Option(names = "--status", description = "Change nothing; say where the last apply stands: fully applied,"
            + " untouched (restored), still running (its commit on the host), or interrupted (run gpuforge rollback)."
            + " Exit 0 when applied or untouched, 1 when interrupted, 3 while still running.")
    boolean status;

    RollbackCommand(CliServices services) {
        super(services);
    }

    @Override
    public Integer call() throws IOException {
        if (status) {
            if (id != null) {
                services.output().error("gpuforge rollback --status: --status tells about the applies; leave out --id");
                return 2;
            }
            try (PassthroughHost.Opened h = where.change(services)) {
                PassthroughService.ApplyStatus last = h.passthrough().applyStatus(h.target(),
                        HostSource::refuseUnknownKey);
                PlanHistory.History plans = h.passthrough().history().list(h.target(), HostSource::refuseUnknownKey);
                return print(services.output(), h.target().describe(), last, plans, json.enabled());
            } catch (HostException | BackendException e) {
                services.output().error("gpuforge rollback --status: " + e.getMessage());
                return 1;
            } catch (IllegalArgumentException e) {
                services.output().error("gpuforge rollback --status: " + e.getMessage());
                return 2;
            }
        }
        try (PassthroughHost.Opened h = where.change(services)) {
            ApplyOutcome r = h.passthrough().rollback(h.target(), Optional.ofNullable(id),
                    ApplyCommand.progress(services.output(), !json.quiet), HostSource::refuseUnknownKey);
            ApplyCommand.report(services.output(), r, json.enabled(), false);
            return 0;
        } catch (HostChangeException e) {
            ApplyCommand.failed(services.output(), "gpuforge rollback: ", e, json.enabled());
            return 1;
        } catch (HostException | BackendException e) {
            services.output().error("gpuforge rollback: " + e.getMessage());
            return 1;
        } catch (IllegalArgumentException e) {
            services.output().error("gpuforge rollback: " + e.getMessage());
            return 2;
        }
    }

    /** What the end state is called: the words a user reads and scripts match. */
    static String said(PassthroughService.ApplyStatus.Kind k) {
        switch (k) {
            case APPLIED:
                return "fully applied";
            case UNTOUCHED:
                return "untouched (restored)";
            case RUNNING:
                return "still running";
            case INTERRUPTED:
                return "interrupted: run gpuforge rollback";
            default:
                return "no GPUForge apply on this host";
        }
    }

    /** Prints where the last apply stands (after an apply's cut connection); the exit status as below. */
    static int print(CliOutput o, PassthroughService.ApplyStatus s, boolean json) {
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("journal", s.journalId().orElse(null));
            m.put("state", s.kind().name().toLowerCase(Locale.ROOT));
            m.put("said", said(s.kind()));
            m.put("message", s.message().orElse(null));
            o.json(m);
        } else {
            o.line(s.journalId().map(i -> i + ": ").orElse("") + said(s.kind()));
            s.message().ifPresent(o::line);
        }
        return exit(s);
    }

    private static int exit(PassthroughService.ApplyStatus s) {
        switch (s.kind()) {
            case INTERRUPTED:
                return 1;
            case RUNNING:
                return 3;
            default:
                return 0;
        }
    }

    /**
     * Prints where the last apply stands and every plan applied on the host, newest first (what the window's
     * rollback lists); the exit status: 0 applied or untouched, 1 interrupted, 3 running.
     */
    static int print(CliOutput o, String host, PassthroughService.ApplyStatus s, PlanHistory.History plans,
                     boolean json) {
        if (json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("host", host);
            m.put("journal", s.journalId().orElse(null));
            m.put("state", s.kind().name().toLowerCase(Locale.ROOT));
            m.put("said", said(s.kind()));
            m.put("message", s.message().orElse(null));
            List<Object> list = new ArrayList<>();
            for (PlanHistory.AppliedPlan p : plans.plans()) {
                Map<String, Object> j = new LinkedHashMap<>();
                j.put("id", p.id());
                j.put("at", p.at().toString());
                j.put("state", p.state().name().toLowerCase(Locale.ROOT));
                j.put("functions", p.functions().stream().map(Object::toString).toList());
                j.put("files", p.files());
                list.add(j);
            }
            m.put("plans", list);
            o.json(m);
        } else {
            o.line(host + ": " + s.journalId().map(i -> i + ": ").orElse("") + said(s.kind()));
            s.message().ifPresent(o::line);
            if (plans.plans().isEmpty()) {
                o.line("No plan applied by GPUForge on " + host + ".");
            }
            for (PlanHistory.AppliedPlan p : plans.plans()) {
                o.line("  " + p.id() + "  " + p.at() + "  " + p.state().name().toLowerCase(Locale.ROOT).replace('_', ' ')
                        + "  " + p.functions() + "  " + String.join(", ", p.files()));
            }
        }
        return exit(s);
    }
}
