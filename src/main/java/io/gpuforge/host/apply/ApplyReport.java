package io.gpuforge.host.apply;

import io.gpuforge.host.CommandTimeoutException;
import io.gpuforge.host.RemoteFiles;

import io.gpuforge.domain.host.HostChangeState;
import io.gpuforge.domain.host.JournalState;
import io.gpuforge.domain.passthrough.Check;
import java.util.List;
import java.util.Optional;

/** The messages of a failed apply or rollback: exactly what state the host is in, and what to do. */
public final class ApplyReport {

    private ApplyReport() {
    }

    private static String list(List<String> items) {
        return String.join(", ", items);
    }

    /** What the undo did, item by item, ending with what the user should do (nothing, or 'gpuforge rollback'). */
    static String state(HostChangeState s, List<String> problems, String backupDir) {
        return state(s, problems, backupDir, Optional.empty());
    }

    /**
     * As {@link #state(HostChangeState, List, String)}; {@code failedInApply} is the refresh command whose failure
     * ended the apply. When that same command is the one that fails again on the re-run, and every file was restored
     * and every other command re-ran, the host's boot is known: such a command (update-initramfs, update-grub,
     * proxmox-boot-tool) replaces what it generates only once it is built, so the apply's failed run put none of the
     * new settings in place, and what the re-run rebuilt came from the restored files.
     */
    private static String state(HostChangeState s, List<String> problems, String backupDir,
                                Optional<String> failedInApply) {
        StringBuilder b = new StringBuilder();
        if (!s.filesRestored().isEmpty()) {
            b.append("Restored ").append(list(s.filesRestored())).append(" from ").append(backupDir);
            b.append(s.commandsRerun().isEmpty() ? "" : " and re-ran " + list(s.commandsRerun())).append(". ");
        } else if (!s.commandsRerun().isEmpty()) {
            b.append("Re-ran ").append(list(s.commandsRerun())).append(". ");
        }
        if (!s.filesNotRestored().isEmpty()) {
            b.append("NOT restored: ").append(list(s.filesNotRestored())).append(". ");
        }
        boolean sameFailure = failedInApply.isPresent() && s.commandsFailed().equals(List.of(failedInApply.get()))
                && s.filesNotRestored().isEmpty() && s.commandsPending().isEmpty();
        if (sameFailure) {
            b.append("Re-running ").append(failedInApply.get()).append(" failed again, as it did during the apply. It"
                    + " replaces a boot file only once it has built it completely, so the host still boots with its"
                    + " original settings (with several kernels, check its output above: a kernel it stopped at"
                    + " earlier this time than during the apply keeps the image the apply built). ");
        } else if (!s.commandsFailed().isEmpty()) {
            b.append("Re-running ").append(list(s.commandsFailed())).append(" did not succeed, so the boot loader or the"
                    + " initramfs may still carry the new settings. ");
        }
        if (!s.commandsPending().isEmpty()) {
            b.append("Not re-run yet: ").append(list(s.commandsPending())).append(". ");
        }
        if (!problems.isEmpty()) {
            b.append("(").append(String.join("; ", problems)).append(".) ");
        }
        boolean recorded = s.journal().map(x -> x == JournalState.ROLLED_BACK).orElse(false);
        if (s.restored() && recorded) {
            b.append("The host is as it was before the apply.");
        } else if (s.restored()) {
            b.append("Everything is back, but the journal on the host could not be updated: run 'gpuforge rollback'"
                    + " to record it.");
        } else if (sameFailure) {
            b.append("The journal on the host").append(s.journal().map(x -> " (state " + x + ")").orElse(""))
                    .append(" records the apply as not yet rolled back: fix what makes ").append(failedInApply.get())
                    .append(" fail, then run 'gpuforge rollback' to re-run it and record the host as rolled back;"
                            + " backups are in ").append(backupDir).append('.');
        } else {
            b.append("The journal on the host").append(s.journal().map(x -> " (state " + x + ")").orElse(""))
                    .append(" records all of it: fix the cause, then run 'gpuforge rollback' to finish the job (it"
                            + " restores the files again and re-runs only what is still needed); backups are in ")
                    .append(backupDir).append('.');
        }
        return b.toString().strip();
    }

    static String failedApply(String cause, Undo.Result undo, String backupDir) {
        HostChangeState s = undo.host();
        if (s.filesRestored().isEmpty() && s.filesNotRestored().isEmpty() && s.commandsRerun().isEmpty()
                && s.commandsFailed().isEmpty() && s.commandsPending().isEmpty()
                && s.journal().map(x -> x == JournalState.ROLLED_BACK).orElse(false)) {
            return "The apply failed before any file was changed: " + cause + ". Nothing on the host was changed.";
        }
        return "The apply failed: " + cause + ". " + state(s, undo.problems(), backupDir, failedCommand(cause, s));
    }

    /** The refresh command the apply failed in, when the cause names one that also failed on the re-run. */
    private static Optional<String> failedCommand(String cause, HostChangeState s) {
        return s.commandsFailed().stream().filter(c -> cause.startsWith(c + " failed")).findFirst();
    }

    /** Cut before the commit started: the targets were never touched. */
    static String cutBeforeCommit(String cause, List<String> staged) {
        return "The apply was cut off: " + cause + ". No file GPUForge edits was changed: the host is untouched"
                + (staged.isEmpty() ? "" : " (the new versions of " + list(staged) + " wait beside them as *"
                + RemoteFiles.STAGED + " copies; the next gpuforge apply, rollback or rollback --status removes them"
                + " and records the apply as not done)") + ". Apply again when the host is reachable.";
    }

    /** Cut while the detached commit ran: it goes on by itself, and how to learn where it ended. */
    static String detached(String cause, CommitStatus seen, String id) {
        StringBuilder b = new StringBuilder("The apply was cut off: ").append(cause).append(". ");
        b.append("The commit continues on the host by itself (detached from the connection) and ends either fully"
                + " applied or restored to the state before the apply; so far ");
        b.append(seen.renamed().isEmpty() ? "no file was seen renamed" : "renamed: " + list(seen.renamed()));
        b.append(seen.started().isEmpty() ? "; no refresh command was seen starting" : "; started: " + list(seen.started()));
        b.append(". Its progress is in ").append(CommitScript.status(id)).append(" on the host (output in ")
                .append(CommitScript.log(id)).append("). Run 'gpuforge rollback --status' with the same host options"
                + " to learn how it ended; a later gpuforge apply or rollback records its end first.");
        return b.toString();
    }

    /** How a detached commit ended by itself, for the next contact. */
    static String commitEnded(String id, CommitStatus s) {
        switch (s.end()) {
            case APPLIED:
                return "The commit of the apply " + id + " ended on the host by itself: fully applied"
                        + (s.started().isEmpty() ? "" : " (ran " + list(s.started()) + ")") + ".";
            case RESTORED:
                return "The commit of the apply " + id + " ended on the host by itself: "
                        + s.failure().map(f -> f + ", so it ").orElse("it ") + "restored "
                        + (s.restored().isEmpty() ? "nothing (no file had been changed)" : list(s.restored()))
                        + (s.rerun().isEmpty() ? "" : " and re-ran " + list(s.rerun()))
                        + ". The host is as it was before the apply.";
            case RESTORE_FAILED:
                if (!s.failedCommands().isEmpty() && s.rerunFailed().equals(s.failedCommands())
                        && s.notRestored().isEmpty() && s.restored().containsAll(s.renamed())) {
                    String c = s.failedCommands().get(0);
                    return "The commit of the apply " + id + " ended on the host by itself: " + c + " failed, so it"
                            + " restored " + list(s.restored()) + (s.rerun().isEmpty() ? "" : " and re-ran "
                            + list(s.rerun())) + "; re-running " + c + " failed again, as it did in the commit. It"
                            + " replaces a boot file only once it has built it completely, so the host still boots"
                            + " with its original settings. Fix what makes " + c + " fail, then run 'gpuforge"
                            + " rollback' to re-run it and record the host as rolled back.";
                }
                return "The commit of the apply " + id + " ended on the host by itself: "
                        + s.failure().map(f -> f + "; ").orElse("") + "its restore did not finish ("
                        + s.detail().orElse("?") + "). Fix the cause, then run 'gpuforge rollback' to finish the job.";
            case STOPPED:
                return "The commit of the apply " + id + " stopped '" + s.detail().orElse("?") + "' at its time limit;"
                        + " nothing was rolled back. Run 'gpuforge rollback': it restores the files and re-runs the"
                        + " refresh commands; then apply again.";
            case NEVER_STARTED:
                return "The commit of the apply " + id + " never started on the host: no file was changed.";
            default:
                return "The commit of the apply " + id + " stopped on the host before it ended (no end in "
                        + CommitScript.status(id) + ")" + (s.renamed().isEmpty() ? "" : "; it had renamed "
                        + list(s.renamed())) + (s.started().isEmpty() ? "" : " and started " + list(s.started()))
                        + ". The apply is interrupted: run 'gpuforge rollback' to put the host back.";
        }
    }

    /** A commit still running on the host: nothing new may start. */
    static String stillRunning(String host, String id, CommitStatus s) {
        return "The commit of the apply " + id + " is still running on " + host
                + s.running().map(c -> " (running '" + c + "')").orElse("") + "; its progress is in "
                + CommitScript.status(id) + ". Wait until it has ended ('gpuforge rollback --status' tells), then try"
                + " again.";
    }

    static String timedOut(String command, CommandTimeoutException e, String backupDir) {
        return e.getMessage() + ". " + (e.mayStillRun() ? "It may still be running on the host. "
                : "It was stopped, with every process it started. ")
                + "Nothing was rolled back: the files are changed as planned, and the journal on the host records this"
                + " apply as unfinished (backups in " + backupDir + "). "
                + (e.mayStillRun() ? "Check on the host whether it is still running (pgrep -a " + command.split(" ")[0]
                        + ") and wait until it has ended, then run" : "Run")
                + " 'gpuforge rollback': it restores the files and re-runs the refresh commands; then apply again.";
    }
}
