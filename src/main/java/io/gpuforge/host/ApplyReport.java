package io.gpuforge.host;

import io.gpuforge.domain.HostChangeState;
import io.gpuforge.domain.JournalState;
import io.gpuforge.domain.Check;
import java.util.List;
import java.util.Optional;

/** The messages of a failed apply or rollback: exactly what state the host is in, and what to do. */
final class ApplyReport {

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

    static String connectionLost(String cause, List<String> written, List<String> ran, Optional<String> running,
                                 String backupDir) {
        StringBuilder b = new StringBuilder("The apply was cut off: ").append(cause)
                .append(". The host may be half applied: ");
        b.append(written.isEmpty() ? "no file was written yet" : "written: " + list(written));
        b.append(ran.isEmpty() ? "; no refresh command had run" : "; run: " + list(ran));
        running.ifPresent(c -> b.append("; '").append(c).append("' was running and may or may not have finished"));
        return b.append(". Nothing could be put back over the lost connection. When the host is reachable again, run"
                + " 'gpuforge rollback': the journal on the host records this apply; it restores the files from ")
                .append(backupDir).append(" and re-runs the refresh commands.").toString();
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
