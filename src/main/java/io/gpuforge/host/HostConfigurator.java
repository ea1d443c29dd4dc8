package io.gpuforge.host;

import io.gpuforge.domain.ApplyOutcome;
import io.gpuforge.domain.HostChangeState;
import io.gpuforge.domain.JournalState;
import io.gpuforge.domain.ApplyProgress;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.gpuforge.domain.ApplyProgress.Kind;
import io.gpuforge.domain.ApplyProgress.Step;
import io.gpuforge.domain.PassthroughPlan;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a {@link PassthroughPlan} on a host and rolls it back. Changes nothing the plan does not show;
 * backs every edited file up under {@code /var/lib/gpuforge/backups/<time>-<id>/} (with a manifest); writes
 * atomically keeping mode and owner; journals each step so an interrupted apply can be rolled back; is
 * idempotent (the same plan again changes nothing and says so). If an apply fails part way it restores
 * what it wrote and re-runs the refresh commands that had run, and says exactly what state the host is in.
 * A refresh command that runs past its (generous) limit is not rolled back behind the user's back. With a
 * sysroot it edits files under it and lists the commands.
 */
public final class HostConfigurator {

    /**
     * Time limits: a file step is small (seconds); a refresh command (update-initramfs -u -k all on a host with
     * several kernels and DKMS modules, dracut, proxmox-boot-tool on several ESPs) can take many minutes.
     */
    public record Limits(Duration fileStep, Duration command) {
        public static Limits defaults() {
            return new Limits(Duration.ofSeconds(60), Duration.ofMinutes(20));
        }
    }



    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
    private final RemoteFiles files;
    private final Clock clock;
    private final Limits limits;
    private final Undo undo;
    private final DetachedCommit commit;
    private static final Logger LOG = LoggerFactory.getLogger(HostConfigurator.class);
    private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * @param sysroot a directory standing for the host's {@code /} (files edited there, commands only listed);
     *                empty for the host itself
     */
    public HostConfigurator(HostShell shell, Optional<String> sysroot, boolean sudo, Clock clock) {
        this(shell, sysroot, sudo, clock, Limits.defaults());
    }

    public HostConfigurator(HostShell shell, Optional<String> sysroot, boolean sudo, Clock clock, Limits limits) {
        this.files = new RemoteFiles(shell, sysroot.orElse(""), sudo, limits.fileStep());
        this.clock = clock;
        this.limits = limits;
        this.undo = new Undo(files, this::save, limits.command());
        this.commit = new DetachedCommit(files, limits.command());
    }

    /**
     * The journal of the last apply on the host, checked against what GPUForge can have written ({@link
     * JournalPolicy}): one naming another file, a path with '..', a command that is not a refresh command, or
     * backups elsewhere is refused, naming the entry. Brought up to date first with how a detached commit ended
     * ({@link #state()}).
     */
    public Optional<Journal> journal() throws ProbeException {
        return state().journal();
    }

    /**
     * Where the last apply stands. First brings the journal up to date: a detached commit that ended is recorded
     * (APPLIED, or restored); one whose process is gone without an end is recorded as an interrupted apply that
     * rollback finishes; an apply cut before its commit has its staged copies removed and is recorded as not done.
     */
    public ApplyState state() throws ProbeException {
        Optional<Journal> read = read(Journal.PATH, "The journal " + Journal.PATH + " on " + files.describe());
        if (read.isEmpty()) {
            return new ApplyState(ApplyState.Kind.NONE, read, Optional.empty());
        }
        Journal j = read.get();
        Optional<String> news = Optional.empty();
        if (j.state == JournalState.COMMITTING) {
            CommitStatus c = commit.probe(j);
            if (!CommitRecovery.record(j, c)) {
                return new ApplyState(ApplyState.Kind.RUNNING, read,
                        Optional.of(ApplyReport.stillRunning(files.describe(), j.id, c)));
            }
            news = Optional.of(ApplyReport.commitEnded(j.id, c));
            if (!CommitRecovery.neverCommitted(j)) {
                save(j);
            }
        }
        if (CommitRecovery.neverCommitted(j)) {
            List<String> removed = files.discardStaged(j.files.stream().map(f -> f.path).toList());
            j.state = JournalState.ROLLED_BACK;
            save(j);
            news = Optional.of("The apply " + j.id + " was cut off before it changed any file"
                    + (removed.isEmpty() ? "" : "; removed the staged copies of " + String.join(", ", removed))
                    + ". The host is untouched.");
        }
        news.ifPresent(n -> LOG.info("{} on {}", n, files.describe()));
        return new ApplyState(kind(j.state), Optional.of(j), news);
    }

    private static ApplyState.Kind kind(JournalState s) {
        switch (s) {
            case APPLIED:
                return ApplyState.Kind.APPLIED;
            case ROLLED_BACK:
                return ApplyState.Kind.ROLLED_BACK;
            default:
                return ApplyState.Kind.UNFINISHED;
        }
    }

    private Optional<Journal> read(String path, String what) throws ProbeException {
        Optional<byte[]> raw = files.read(path);
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        Journal j;
        try {
            j = json.readValue(raw.get(), Journal.class);
        } catch (IOException e) {
            throw new ProbeException(what + " is damaged: " + e.getMessage(), e);
        }
        Optional<String> problem = j == null ? Optional.of("it is empty") : JournalPolicy.problem(j);
        if (problem.isPresent()) {
            throw new ProbeException(what + " is not one GPUForge wrote: " + problem.get() + ". Look at the file, and"
                    + " move it away if it is not from GPUForge");
        }
        return Optional.of(j);
    }

    /** The manifest in the backup directory must be the journal's own (or absent, as a journal may outlive it). */
    private void checkManifest(Journal j) throws ProbeException {
        String path = j.backupDir + "/manifest.json";
        Optional<Journal> m = read(path, "The backup manifest " + path + " on " + files.describe());
        if (m.isPresent()) {
            Optional<String> d = JournalPolicy.disagreement(j, m.get());
            if (d.isPresent()) {
                throw new ProbeException("The backup manifest " + path + " does not match the journal " + Journal.PATH
                        + ": " + d.get() + ". Compare the two files");
            }
        }
    }

    /** The manifest first, the journal last: the journal's atomic write is what commits a step. */
    private void save(Journal j) throws ProbeException {
        try {
            byte[] data = json.writeValueAsBytes(j);
            files.write(j.backupDir + "/manifest.json", data);
            files.write(Journal.PATH, data);
        } catch (IOException e) {
            throw new ProbeException("The journal could not be serialised", e);
        }
    }

    public ApplyOutcome apply(PassthroughPlan plan) throws ApplyException {
        return apply(plan, ApplyProgress.NONE);
    }

    /**
     * Applies the plan; {@code progress} hears of each step and each line the refresh commands write. Over the
     * connection: the journal, the backups, and each new file staged beside its target; then one detached commit on
     * the host renames them over the targets and runs the refresh commands (restoring everything when one fails),
     * so a cut connection leaves the host untouched (before the commit) or lets the commit end by itself.
     */
    public ApplyOutcome apply(PassthroughPlan plan, ApplyProgress progress) throws ApplyException {
        Journal j;
        Optional<Journal> previous;
        List<PassthroughPlan.FileEdit> todo = new ArrayList<>();
        try {
            ApplyState now = state();
            if (now.kind() == ApplyState.Kind.RUNNING) {
                throw new ApplyException(now.message().orElseThrow() + " Nothing was changed.");
            }
            previous = now.journal();
            if (previous.isPresent() && (previous.get().state == JournalState.APPLYING
                    || previous.get().state == JournalState.ROLLING_BACK)) {
                Journal p = previous.get();
                throw new ApplyException("An earlier apply (" + p.id + ") on " + files.describe() + " did not finish"
                        + (p.unfinishedCommand == null ? "" : " ('" + p.unfinishedCommand + "' ran past its time limit)")
                        + " and was interrupted. Run 'gpuforge rollback' first; it restores the files from "
                        + p.backupDir + " and re-runs the refresh commands.");
            }
            for (PassthroughPlan.FileEdit e : plan.edits()) {
                Optional<byte[]> current = files.read(e.path());
                byte[] after = e.after().getBytes(StandardCharsets.UTF_8);
                if (current.isPresent() && Arrays.equals(current.get(), after)) {
                    continue;
                }
                Optional<byte[]> before = e.before().map(x -> x.getBytes(StandardCharsets.UTF_8));
                boolean asPlanned = current.isEmpty() ? before.isEmpty()
                        : before.isPresent() && Arrays.equals(current.get(), before.get());
                if (!asPlanned) {
                    throw new ApplyException(e.path() + " on " + files.describe() + " changed since the plan was made;"
                            + " nothing was changed. Make the plan again.");
                }
                todo.add(e);
            }
            if (todo.isEmpty()) {
                return new ApplyOutcome(previous.map(p -> p.id).orElse(plan.id()), ApplyOutcome.Status.NOTHING_TO_DO, List.of(),
                        List.of(), List.of(), previous.map(p -> p.backupDir));
            }
            j = newJournal(plan, todo);
            save(j);
        } catch (ProbeException e) {
            throw new ApplyException("Nothing was changed: " + e.getMessage(), e);
        }
        List<String> staged = new ArrayList<>();
        try {
            for (Journal.FileEntry f : j.files) {
                if (f.existed) {
                    step(progress, new Step(Kind.BACKUP, f.path), () -> files.copy(f.path, j.backupDir + "/files" + f.path));
                }
            }
            for (Journal.FileEntry f : j.files) {
                String after = todo.stream().filter(e -> e.path().equals(f.path)).findFirst().orElseThrow().after();
                step(progress, new Step(Kind.WRITE, f.path), () -> files.stage(f.path, after.getBytes(StandardCharsets.UTF_8)));
                staged.add(f.path);
            }
            j.state = JournalState.COMMITTING; // before the start: from here on the commit's status file tells
            save(j);
        } catch (ConnectionLostException e) {
            throw new ApplyException(ApplyReport.cutBeforeCommit("the connection to " + e.host() + " was lost while"
                    + " GPUForge " + (staged.size() < j.files.size() ? "staged the new files" : "recorded the journal"),
                    staged), e, new HostChangeState(List.of(), List.of(), List.of(), List.of(), List.of(),
                    Optional.of(JournalState.APPLYING)));
        } catch (ProbeException e) {
            j.state = JournalState.APPLYING;
            throw failed(j, e, progress);
        }
        return commit(j, progress);
    }

    /** Starts the detached commit, follows it to its end and records that end in the journal. */
    private ApplyOutcome commit(Journal j, ApplyProgress progress) throws ApplyException {
        List<String> listed = files.sysroot() ? j.commands : List.of();
        ProbeException cut;
        try {
            commit.launch(j, files.sysroot() ? List.of() : j.commands);
        } catch (ProbeException e) {
            CommitStatus s;
            try {
                s = commit.probe(j);
            } catch (ProbeException again) {
                throw detached(j, e, CommitStatus.neverStarted());
            }
            if (s.end() == CommitStatus.End.NEVER_STARTED) {
                j.state = JournalState.APPLYING;
                throw failed(j, e, progress);
            }
        }
        DetachedCommit.Following f = new DetachedCommit.Following(progress, j);
        try {
            commit.follow(j, f);
        } catch (ConnectionLostException e) {
            throw detached(j, e, f.seen());
        } catch (ProbeException e) {
            // one answer that did not reach the end (not the connection): look again, from the start of the log
            LOG.debug("following the commit of {} again: {}", j.id, e.getMessage());
            DetachedCommit.Following second = f.again();
            try {
                commit.follow(j, second);
                f = second;
            } catch (ProbeException again) {
                throw detached(j, again, second.seen().renamed().isEmpty() ? f.seen() : second.seen());
            }
        }
        return ended(j, f.status(), f, listed, progress);
    }

    /** Records how the commit ended and answers as an apply does: its outcome, or what failed and where it left the host. */
    private ApplyOutcome ended(Journal j, CommitStatus s, DetachedCommit.Following f, List<String> listed,
                               ApplyProgress progress) throws ApplyException {
        CommitRecovery.record(j, s);
        Optional<String> unsaved = Optional.empty();
        try {
            save(j);
        } catch (ProbeException e) {
            unsaved = Optional.of(e.getMessage());
        }
        switch (s.end()) {
            case APPLIED:
                if (unsaved.isPresent()) {
                    throw new ApplyException("The apply " + j.id + " is fully applied on " + files.describe() + ", but"
                            + " the journal could not be updated (" + unsaved.get() + "); the next gpuforge apply,"
                            + " rollback or rollback --status records it.", null, null);
                }
                return new ApplyOutcome(j.id, ApplyOutcome.Status.APPLIED, s.renamed(), s.started(), listed,
                        Optional.of(j.backupDir));
            case STOPPED:
                String c = s.detail().orElse("?");
                throw new ApplyException(ApplyReport.timedOut(c, new CommandTimeoutException("'" + c + "' did not"
                        + " finish within " + CommandTimeoutException.human(limits.command()) + " on "
                        + files.describe(), false), j.backupDir), null, null);
            case RESTORED:
            case RESTORE_FAILED:
                List<String> notRestored = new ArrayList<>(s.notRestored());
                s.renamed().stream().filter(p -> !s.restored().contains(p) && !notRestored.contains(p))
                        .forEach(notRestored::add);
                List<String> problems = new ArrayList<>();
                s.detail().filter(d -> !d.isEmpty()).ifPresent(problems::add);
                unsaved.ifPresent(u -> problems.add("the journal could not be updated: " + u));
                HostChangeState h = new HostChangeState(s.restored(), notRestored, s.rerun(), s.rerunFailed(),
                        CommitRecovery.pending(s), Optional.of(unsaved.isPresent() ? JournalState.COMMITTING : j.state));
                throw new ApplyException(ApplyReport.failedApply(cause(j, s, f), new Undo.Result(h, problems),
                        j.backupDir), null, h);
            default:
                // the commit's process is gone without an end: put back what it may have done, over this connection
                return failedApply(j, new ProbeException("the commit on " + files.describe() + " stopped before it"
                        + " ended (no end in " + CommitScript.status(j.id) + "; see " + CommitScript.log(j.id) + ")"),
                        progress);
        }
    }

    private ApplyOutcome failedApply(Journal j, ProbeException cause, ApplyProgress progress) throws ApplyException {
        throw failed(j, cause, progress);
    }

    /** What ended the apply: the refresh command that failed (with its last lines), or the rename. */
    private String cause(Journal j, CommitStatus s, DetachedCommit.Following f) {
        if (!s.failedCommands().isEmpty()) {
            String c = s.failedCommands().get(0);
            String rc = s.failure().map(x -> x.substring(x.lastIndexOf(' ') + 1)).orElse("?");
            return c + " failed on " + files.describe() + " (exit " + rc + ")" + (f == null ? "" : f.tail(c));
        }
        return s.failure().orElse("the commit failed") + " on " + files.describe() + " (see " + CommitScript.log(j.id)
                + ")";
    }

    /** The connection was lost once the commit may have started: it goes on by itself on the host. */
    private ApplyException detached(Journal j, ProbeException cause, CommitStatus seen) {
        String what = cause instanceof ConnectionLostException lost ? "the connection to " + lost.host()
                + " was lost while GPUForge followed the commit" : "GPUForge lost track of the commit (" + cause.getMessage() + ")";
        HostChangeState s = new HostChangeState(List.of(), seen.renamed(), List.of(), List.of(), seen.started(),
                Optional.of(JournalState.COMMITTING));
        return new ApplyException(ApplyReport.detached(what, seen, j.id), cause, s);
    }

    private Journal newJournal(PassthroughPlan plan, List<PassthroughPlan.FileEdit> todo) throws ProbeException {
        Journal j = new Journal();
        j.id = STAMP.format(clock.instant()) + "-" + plan.id();
        j.planId = plan.id();
        j.state = JournalState.APPLYING;
        j.backupDir = JournalPolicy.BACKUPS + j.id;
        j.createdAtMillis = clock.millis();
        j.commands = new ArrayList<>(plan.commands());
        j.commandsStarted = new ArrayList<>();
        plan.functions().forEach(f -> j.functions.add(f.toString()));
        j.kernelArgs = kernelArgs(plan);
        for (PassthroughPlan.FileEdit e : todo) {
            j.files.add(new Journal.FileEntry(e.path(), files.read(e.path()).isPresent()));
        }
        Optional<String> problem = JournalPolicy.problem(j);
        if (problem.isPresent()) {
            throw new ProbeException("the plan asks for more than GPUForge does on a host (" + problem.get() + ")");
        }
        return j;
    }

    private interface Action {
        void run() throws ProbeException;
    }

    private static void step(ApplyProgress progress, Step step, Action a) throws ProbeException {
        progress.started(step);
        boolean ok = false;
        try {
            a.run();
            ok = true;
        } finally {
            progress.finished(step, ok);
        }
    }

    /** A refresh command, its output streamed to {@code progress}; a non-zero exit fails the apply. */
    private void runCommand(String c, ApplyProgress progress) throws ProbeException {
        Step step = new Step(Kind.COMMAND, c);
        progress.started(step);
        boolean ok = false;
        try {
            HostShell.Result r = files.command(c, limits.command(), (line, err) -> progress.output(step, line, err));
            if (r.exitCode() != 0) {
                throw new ProbeException(c + " failed on " + files.describe() + " (exit " + r.exitCode() + ")"
                        + RemoteFiles.tail(r));
            }
            ok = true;
        } finally {
            progress.finished(step, ok);
        }
    }

    /** Restores what the failed apply wrote, re-runs what it had run, and says where that leaves the host. */
    private ApplyException failed(Journal j, ProbeException cause, ApplyProgress progress) {
        Undo.Result u = undo.run(j, progress);
        return new ApplyException(ApplyReport.failedApply(cause.getMessage(), u, j.backupDir), cause, u.host());
    }

    public ApplyOutcome rollback(Optional<String> id) throws ApplyException {
        return rollback(id, ApplyProgress.NONE);
    }

    /**
     * Rolls back the journaled apply (the last one); {@code id} must match when given. Done (ROLLED_BACK) only when
     * every file is restored and every refresh command that had run was re-run successfully; otherwise it says what
     * is left, and running it again finishes the job.
     */
    public ApplyOutcome rollback(Optional<String> id, ApplyProgress progress) throws ApplyException {
        Journal j;
        try {
            ApplyState now = state();
            if (now.kind() == ApplyState.Kind.RUNNING) {
                throw new ApplyException(now.message().orElseThrow() + " Nothing was changed.");
            }
            j = now.journal().orElseThrow(() -> new ApplyException("Nothing to roll back on " + files.describe()
                    + ": no GPUForge journal."));
        } catch (ProbeException e) {
            throw new ApplyException("The rollback did not start: " + e.getMessage() + ". Nothing was changed.", e);
        }
        if (id.isPresent() && !id.get().equals(j.id) && !id.get().equals(j.planId)) {
            throw new ApplyException("The last apply on the host is " + j.id + ", not " + id.get());
        }
        if (j.state == JournalState.ROLLED_BACK) {
            return new ApplyOutcome(j.id, ApplyOutcome.Status.NOTHING_TO_DO, List.of(), List.of(), List.of(),
                    Optional.of(j.backupDir));
        }
        try {
            checkManifest(j);
        } catch (ProbeException e) {
            throw new ApplyException("The rollback did not start: " + e.getMessage() + ". Nothing was changed.", e);
        }
        Undo.Result u = undo.run(j, progress);
        HostChangeState s = u.host();
        if (!s.restored() || s.journal().map(x -> x != JournalState.ROLLED_BACK).orElse(true)) {
            throw new ApplyException("The rollback did not finish. " + ApplyReport.state(s, u.problems(), j.backupDir),
                    null, s);
        }
        List<String> listed = files.sysroot() ? j.commands : List.of();
        return new ApplyOutcome(j.id, ApplyOutcome.Status.ROLLED_BACK, s.filesRestored(), s.commandsRerun(), listed,
                Optional.of(j.backupDir));
    }

    /** Kernel arguments the plan adds: what verify looks for in /proc/cmdline after the reboot. */
    static List<String> kernelArgs(PassthroughPlan plan) {
        Set<String> added = new LinkedHashSet<>();
        for (PassthroughPlan.FileEdit e : plan.edits()) {
            if (e.path().equals("/etc/default/grub") || e.path().equals("/etc/kernel/cmdline")
                    || JournalPolicy.GRUB_DROP_IN.matcher(e.path()).matches()) {
                Set<String> before = tokens(e.before().orElse(""));
                for (String t : tokens(e.after())) {
                    if (!before.contains(t) && !t.startsWith("GRUB_")) {
                        added.add(t);
                    }
                }
            }
        }
        return new ArrayList<>(added);
    }

    private static Set<String> tokens(String s) {
        Set<String> out = new LinkedHashSet<>();
        for (String t : s.replace('"', ' ').replace('\'', ' ').split("\\s+")) {
            String x = t.replaceFirst("^GRUB_CMDLINE_LINUX(_DEFAULT)?=", "").strip();
            if (!x.isEmpty()) {
                out.add(x);
            }
        }
        return out;
    }
}
