package io.gpuforge.host.apply;

import io.gpuforge.host.CommandTimeoutException;
import io.gpuforge.host.HostShell;
import io.gpuforge.host.ProbeException;
import io.gpuforge.host.RemoteFiles;

import io.gpuforge.domain.host.HostChangeState;
import io.gpuforge.domain.host.JournalState;
import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.domain.passthrough.ApplyProgress.Kind;
import io.gpuforge.domain.passthrough.ApplyProgress.Step;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Puts a journaled apply back: restores every written file byte for byte (or removes it when it did not exist),
 * then re-runs the refresh commands that had run, so the boot loader and the initramfs no longer carry what the
 * files no longer say. The journal is marked ROLLED_BACK only when all of it succeeded; otherwise it stays
 * ROLLING_BACK, so a rollback finishes the job (files again, and only the commands still needed). Staged copies of an
 * apply whose commit did not run ({@code *.gpuforge-new}) are removed first. Safe to repeat.
 */
public final class Undo {

    interface JournalWriter {
        void save(Journal j) throws ProbeException;
    }

    private final RemoteFiles files;
    private final JournalWriter journal;
    private final Duration commandLimit;

    Undo(RemoteFiles files, JournalWriter journal, Duration commandLimit) {
        this.files = files;
        this.journal = journal;
        this.commandLimit = commandLimit;
    }

    /** Never throws: what could not be done is in the answer, with why. */
    Result run(Journal j, ApplyProgress progress) {
        if (j.commandsRerun == null) {
            j.commandsRerun = new ArrayList<>();
        }
        List<String> restored = new ArrayList<>();
        List<String> notRestored = new ArrayList<>();
        List<String> rerun = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        List<String> written = j.files.stream().filter(f -> f.written).map(f -> f.path).toList();
        List<String> pending = new ArrayList<>(files.sysroot() ? List.of() : j.commandsToRerun());
        JournalState before = j.state;
        j.state = JournalState.ROLLING_BACK;
        try {
            journal.save(j);
        } catch (ProbeException e) {
            // the journal cannot be updated: touch nothing, so it still records what was written
            j.state = before;
            problems.add("the journal could not be updated (" + e.getMessage() + "), so no file was touched");
            return new Result(new HostChangeState(List.of(), written, List.of(), List.of(), pending,
                    Optional.of(before)), problems);
        }
        try {
            files.discardStaged(j.files.stream().map(f -> f.path).toList());
        } catch (ProbeException e) {
            j.files.forEach(f -> notRestored.add(f.path + RemoteFiles.STAGED + " (staged copy, not removed)"));
            problems.add("the staged copies could not be removed: " + e.getMessage());
        }
        for (Journal.FileEntry f : j.files) {
            if (!f.written) {
                continue;
            }
            Step step = new Step(Kind.RESTORE, f.path);
            progress.started(step);
            try {
                if (f.existed) {
                    files.copy(j.backupDir + "/files" + f.path, f.path);
                } else {
                    files.delete(f.path);
                }
                restored.add(f.path);
                progress.finished(step, true);
            } catch (ProbeException e) {
                notRestored.add(f.path);
                problems.add("restoring " + f.path + ": " + e.getMessage());
                progress.finished(step, false);
            }
        }
        if (notRestored.stream().allMatch(p -> p.endsWith("(staged copy, not removed)"))) {
            rerun(j, progress, pending, rerun, failed, problems);
        } else if (!pending.isEmpty()) {
            problems.add("the refresh commands were not re-run, as not every file is back");
        }
        boolean done = notRestored.isEmpty() && failed.isEmpty() && pending.isEmpty();
        if (done) {
            j.state = JournalState.ROLLED_BACK;
        }
        Optional<JournalState> recorded = Optional.of(JournalState.ROLLING_BACK);
        try {
            journal.save(j);
            recorded = Optional.of(j.state);
        } catch (ProbeException e) {
            problems.add("the journal could not be updated: " + e.getMessage());
        }
        return new Result(new HostChangeState(restored, notRestored, rerun, failed, pending, recorded), problems);
    }

    /** Re-runs {@code pending} in order; what succeeded moves to {@code rerun} (and into the journal). */
    private void rerun(Journal j, ApplyProgress progress, List<String> pending, List<String> rerun, List<String> failed,
                       List<String> problems) {
        while (!pending.isEmpty()) {
            String c = pending.get(0);
            Step step = new Step(Kind.RERUN, c);
            progress.started(step);
            try {
                HostShell.Result r = files.command(c, commandLimit, (line, err) -> progress.output(step, line, err));
                pending.remove(0);
                if (r.exitCode() != 0) {
                    failed.add(c);
                    problems.add(c + " failed (exit " + r.exitCode() + ")" + RemoteFiles.tail(r));
                    progress.finished(step, false);
                    continue;
                }
                rerun.add(c);
                progress.finished(step, true);
                j.commandsRerun.add(c);
                try {
                    journal.save(j);
                } catch (ProbeException e) {
                    // recorded at the end, or a later rollback re-runs it once more
                }
            } catch (ProbeException e) {
                progress.finished(step, false);
                if (e instanceof CommandTimeoutException) {
                    pending.remove(0);
                    failed.add(c);
                }
                problems.add(c + ": " + e.getMessage());
                return;
            }
        }
    }

    /** What was done and, for what was not, why. */
    record Result(HostChangeState host, List<String> problems) {
    }
}
