package io.gpuforge.host.apply;

import io.gpuforge.host.ConnectionLostException;
import io.gpuforge.host.HostShell;
import io.gpuforge.host.ProbeException;
import io.gpuforge.host.RemoteFiles;

import io.gpuforge.domain.passthrough.ApplyOutcome;
import io.gpuforge.domain.host.HostChangeState;
import io.gpuforge.domain.host.JournalState;
import io.gpuforge.domain.passthrough.ApplyProgress;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.gpuforge.domain.passthrough.ApplyProgress.Kind;
import io.gpuforge.domain.passthrough.ApplyProgress.Step;
import io.gpuforge.domain.passthrough.PassthroughPlan;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntConsumer;
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
    private final CommitPhase phase;
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
        this.phase = new CommitPhase(files, commit, this::save, undo, limits.command());
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
            Map<String, byte[]> both = new LinkedHashMap<>();
            both.put(j.backupDir + "/manifest.json", data);
            both.put(Journal.PATH, data);
            files.writeAll(both); // one round trip, in this order

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
            Map<String, Optional<byte[]>> currents = files.readAll(plan.edits().stream()
                    .map(PassthroughPlan.FileEdit::path).toList());
            for (PassthroughPlan.FileEdit e : plan.edits()) {
                Optional<byte[]> current = currents.get(e.path());
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
            j = newJournal(plan, todo, previous, currents);
            save(j);
        } catch (ProbeException e) {
            throw new ApplyException("Nothing was changed: " + e.getMessage(), e);
        }
        List<String> staged = new ArrayList<>();
        try {
            List<Step> backups = new ArrayList<>();
            List<String> copies = new ArrayList<>();
            for (Journal.FileEntry f : j.files) {
                if (f.existed) {
                    backups.add(new Step(Kind.BACKUP, f.path));
                    copies.add(RemoteFiles.copying(f.path, j.backupDir + "/files" + f.path));
                }
            }
            batch(progress, backups, copies, n -> { });
            List<Step> writes = new ArrayList<>();
            List<String> stagings = new ArrayList<>();
            for (Journal.FileEntry f : j.files) {
                String after = todo.stream().filter(e -> e.path().equals(f.path)).findFirst().orElseThrow().after();
                writes.add(new Step(Kind.WRITE, f.path));
                stagings.add(RemoteFiles.staging(f.path, after.getBytes(StandardCharsets.UTF_8)));
            }
            batch(progress, writes, stagings, n -> staged.addAll(j.files.subList(0, n).stream().map(f -> f.path).toList()));
            j.state = JournalState.COMMITTING; // before the start: from here on the commit's status file tells
            save(j);
        } catch (ConnectionLostException e) {
            throw new ApplyException(ApplyReport.cutBeforeCommit("the connection to " + e.host() + " was lost while"
                    + " GPUForge " + (staged.size() < j.files.size() ? "staged the new files" : "recorded the journal"),
                    staged), e, new HostChangeState(List.of(), List.of(), List.of(), List.of(), List.of(),
                    Optional.of(JournalState.APPLYING)));
        } catch (ProbeException e) {
            j.state = JournalState.APPLYING;
            throw phase.failed(j, e, progress);
        }
        return phase.commit(j, progress);
    }

    private Journal newJournal(PassthroughPlan plan, List<PassthroughPlan.FileEdit> todo, Optional<Journal> previous,
                               Map<String, Optional<byte[]>> currents) throws ProbeException {
        Journal j = new Journal();
        j.id = freshId(STAMP.format(clock.instant()) + "-" + plan.id(), previous);
        j.planId = plan.id();
        j.state = JournalState.APPLYING;
        j.backupDir = JournalPolicy.BACKUPS + j.id;
        j.createdAtMillis = clock.millis();
        j.commands = new ArrayList<>(plan.commands());
        j.commandsStarted = new ArrayList<>();
        plan.functions().forEach(f -> j.functions.add(f.toString()));
        j.kernelArgs = AddedKernelArgs.of(plan);
        for (PassthroughPlan.FileEdit e : todo) {
            j.files.add(new Journal.FileEntry(e.path(), currents.get(e.path()).isPresent()));
        }
        Optional<String> problem = JournalPolicy.problem(j);
        if (problem.isPresent()) {
            throw new ProbeException("the plan asks for more than GPUForge does on a host (" + problem.get() + ")");
        }
        return j;
    }

    /**
     * The apply's id, unlike the last one's and any backup's: two plans with the same id (a power limit changed twice)
     * applied within one second would otherwise share the backups and the commit's status file.
     */
    private String freshId(String base, Optional<Journal> previous) throws ProbeException {
        String id = base;
        for (int n = 2; previous.map(p -> p.id).filter(id::equals).isPresent()
                || files.read(JournalPolicy.BACKUPS + id + "/manifest.json").isPresent(); n++) {
            String suffix = "-" + n;
            id = base.substring(0, Math.min(base.length(), 16 + 64 - suffix.length())) + suffix;
        }
        return id;
    }

    /**
     * Steps of one kind in one round trip ({@link RemoteFiles#batch}): {@code progress} hears of each as started before
     * it, and after it of each that ran as done and of the others as failed (all of them when the connection was cut:
     * none is known done then; the error says where it was).
     */
    private void batch(ApplyProgress progress, List<Step> steps, List<String> scripts, IntConsumer done)
            throws ProbeException {
        if (steps.isEmpty()) {
            return;
        }
        steps.forEach(progress::started);
        int[] ran = {0};
        try {
            files.batch(scripts, n -> {
                ran[0] = n;
                done.accept(n);
            });
        } finally {
            for (int i = 0; i < steps.size(); i++) {
                progress.finished(steps.get(i), i < ran[0]);
            }
        }
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
}
