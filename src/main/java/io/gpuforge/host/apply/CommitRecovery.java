package io.gpuforge.host.apply;

import io.gpuforge.domain.host.JournalState;
import java.util.ArrayList;
import java.util.List;

/**
 * Brings a journal to the state its detached commit ended in ({@link CommitStatus}): what the status file names is
 * what was done. A commit whose process is gone without an end may have renamed a file it had no time to record, so
 * every file counts as written then (restoring an untouched file from its backup changes nothing).
 */
public final class CommitRecovery {

    private CommitRecovery() {
    }

    /** Updates {@code j} (not saved); false when {@code s} has no end to record (still running). */
    static boolean record(Journal j, CommitStatus s) {
        if (s.end() == CommitStatus.End.RUNNING) {
            return false;
        }
        boolean all = s.end() == CommitStatus.End.DIED;
        for (Journal.FileEntry f : j.files) {
            f.written = all || s.renamed().contains(f.path);
        }
        j.commandsStarted = new ArrayList<>(s.started());
        j.commandsRerun = new ArrayList<>(s.rerun());
        switch (s.end()) {
            case APPLIED:
                j.state = JournalState.APPLIED;
                break;
            case RESTORED:
                j.state = JournalState.ROLLED_BACK;
                break;
            case RESTORE_FAILED:
                j.state = JournalState.ROLLING_BACK;
                break;
            case STOPPED:
                j.state = JournalState.APPLYING;
                j.unfinishedCommand = s.detail().orElse(null);
                break;
            case NEVER_STARTED:
                j.state = JournalState.APPLYING;
                break;
            default:
                j.state = JournalState.APPLYING;
        }
        return true;
    }

    /** Whether an APPLYING journal never changed a target (cut while staging): only staged copies to remove. */
    static boolean neverCommitted(Journal j) {
        return j.state == JournalState.APPLYING && j.files.stream().noneMatch(f -> f.written)
                && j.commandsStarted != null && j.commandsStarted.isEmpty() && j.unfinishedCommand == null;
    }

    /** The commands that had started and were not re-run (successfully or not) after a restore. */
    static List<String> pending(CommitStatus s) {
        return s.started().stream().filter(c -> !s.rerun().contains(c) && !s.rerunFailed().contains(c)).toList();
    }
}
