package io.gpuforge.host.apply;

import io.gpuforge.host.CommandTimeoutException;
import io.gpuforge.host.ConnectionLostException;
import io.gpuforge.host.HostShell;
import io.gpuforge.host.ProbeException;
import io.gpuforge.host.RemoteFiles;

import io.gpuforge.domain.passthrough.ApplyOutcome;
import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.domain.host.HostChangeState;
import io.gpuforge.domain.host.JournalState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The second half of an apply, once every new file is staged: the detached commit started on the host, followed to
 * its end, and that end recorded in the journal and answered as an apply answers (its outcome, or what failed and
 * where it left the host). A connection lost meanwhile leaves the commit to end by itself.
 */
public final class CommitPhase {

    private static final Logger LOG = LoggerFactory.getLogger(CommitPhase.class);
    private final RemoteFiles files;
    private final DetachedCommit commit;
    private final Undo.JournalWriter journal;
    private final Undo undo;
    private final Duration commandLimit;

    CommitPhase(RemoteFiles files, DetachedCommit commit, Undo.JournalWriter journal, Undo undo, Duration commandLimit) {
        this.files = files;
        this.commit = commit;
        this.journal = journal;
        this.undo = undo;
        this.commandLimit = commandLimit;
    }

    /** Starts the detached commit, follows it to its end and records that end in the journal. */
    ApplyOutcome commit(Journal j, ApplyProgress progress) throws ApplyException {
        List<String> listed = files.sysroot() ? j.commands : List.of();
        try {
            if (!commit.launch(j, files.sysroot() ? List.of() : j.commands)) {
                return attached(j, progress);
            }
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

    /**
     * The commit over the connection, for a host whose refresh commands are no programs on its PATH (the Demo lab's
     * simulated hosts answer them in GPUForge itself): the staged files renamed in one step, then each command, each
     * journaled before it starts; a failure restores and re-runs what had run.
     */
    private ApplyOutcome attached(Journal j, ApplyProgress progress) throws ApplyException {
        List<String> ran = new ArrayList<>();
        try {
            j.state = JournalState.APPLYING;
            j.files.forEach(f -> f.written = true); // journaled before the renames: a cut in between is rolled back
            journal.save(j);
            List<String> renamed = files.renameStaged(j.files.stream().map(f -> f.path).toList());
            for (String c : j.commands) {
                j.commandsStarted.add(c);
                journal.save(j);
                runCommand(c, progress);
                ran.add(c);
            }
            j.state = JournalState.APPLIED;
            journal.save(j);
            return new ApplyOutcome(j.id, ApplyOutcome.Status.APPLIED, renamed, ran, List.of(), Optional.of(j.backupDir));
        } catch (CommandTimeoutException e) {
            String running = j.commandsStarted.isEmpty() ? null : j.commandsStarted.get(j.commandsStarted.size() - 1);
            if (running == null || ran.contains(running)) {
                throw failed(j, e, progress);
            }
            j.unfinishedCommand = running;
            try {
                journal.save(j);
            } catch (ProbeException again) {
                // the journal already says APPLYING with the command started: a rollback re-runs it
            }
            throw new ApplyException(ApplyReport.timedOut(running, e, j.backupDir), e);
        } catch (ProbeException e) {
            throw failed(j, e, progress);
        }
    }

    /** A refresh command, its output streamed to {@code progress}; a non-zero exit fails the apply. */
    private void runCommand(String c, ApplyProgress progress) throws ProbeException {
        ApplyProgress.Step step = new ApplyProgress.Step(ApplyProgress.Kind.COMMAND, c);
        progress.started(step);
        boolean ok = false;
        try {
            HostShell.Result r = files.command(c, commandLimit, (line, err) -> progress.output(step, line, err));
            if (r.exitCode() != 0) {
                throw new ProbeException(c + " failed on " + files.describe() + " (exit " + r.exitCode() + ")"
                        + RemoteFiles.tail(r));
            }
            ok = true;
        } finally {
            progress.finished(step, ok);
        }
    }

    /** Records how the commit ended and answers as an apply does: its outcome, or what failed and where it left the host. */
    private ApplyOutcome ended(Journal j, CommitStatus s, DetachedCommit.Following f, List<String> listed,
                               ApplyProgress progress) throws ApplyException {
        CommitRecovery.record(j, s);
        Optional<String> unsaved = Optional.empty();
        try {
            journal.save(j);
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
                        + " finish within " + CommandTimeoutException.human(commandLimit) + " on "
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

    /** Restores what the failed apply wrote, re-runs what it had run, and says where that leaves the host. */
    ApplyException failed(Journal j, ProbeException cause, ApplyProgress progress) {
        Undo.Result u = undo.run(j, progress);
        return new ApplyException(ApplyReport.failedApply(cause.getMessage(), u, j.backupDir), cause, u.host());
    }
}
