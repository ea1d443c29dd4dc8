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
        if (!s.commandsFailed().isEmpty()) {
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
        return "The apply failed: " + cause + ". " + state(s, undo.problems(), backupDir);
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
