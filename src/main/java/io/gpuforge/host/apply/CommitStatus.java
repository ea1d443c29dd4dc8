package io.gpuforge.host.apply;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the status file of a detached commit ({@link CommitScript}) says: the files it renamed over their targets,
 * the refresh commands it started and how each exited, what it restored and re-ran after a failure, and its end.
 * Read from the host, so only lines of the expected shape count; anything else is ignored.
 *
 * @param end      APPLIED, RESTORED, RESTORE_FAILED, STOPPED; or RUNNING (no end yet, its process alive), DIED (no
 *                 end, no process), NEVER_STARTED (no status file)
 * @param lastRunning the command started (or re-run) last and not exited
 * @param detail   the reason of RESTORE-FAILED, the command of STOPPED, the failure that started a restore
 */
public record CommitStatus(End end, List<String> renamed, List<String> started, List<String> failedCommands,
                    List<String> restored, List<String> notRestored, List<String> rerun, List<String> rerunFailed,
                    Optional<String> failure, Optional<String> detail, Optional<String> lastRunning) {

    enum End { APPLIED, RESTORED, RESTORE_FAILED, STOPPED, RUNNING, DIED, NEVER_STARTED }

    public CommitStatus {
        renamed = List.copyOf(renamed);
        started = List.copyOf(started);
        failedCommands = List.copyOf(failedCommands);
        restored = List.copyOf(restored);
        notRestored = List.copyOf(notRestored);
        rerun = List.copyOf(rerun);
        rerunFailed = List.copyOf(rerunFailed);
    }

    static CommitStatus neverStarted() {
        return new CommitStatus(End.NEVER_STARTED, List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
                List.of(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** Parses the status lines; {@code alive}: whether the commit's process still runs (when it has no end). */
    static CommitStatus parse(List<String> lines, boolean alive, Journal j) {
        List<String> renamed = new ArrayList<>();
        List<String> started = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        List<String> restored = new ArrayList<>();
        List<String> notRestored = new ArrayList<>();
        List<String> rerun = new ArrayList<>();
        List<String> rerunFailed = new ArrayList<>();
        Optional<String> failure = Optional.empty();
        End end = null;
        Optional<String> detail = Optional.empty();
        Optional<String> running = Optional.empty();
        List<String> paths = j.files.stream().map(f -> f.path).toList();
        for (String l : lines) {
            if (l.equals("APPLIED") || l.equals("RESTORED")) {
                end = l.equals("APPLIED") ? End.APPLIED : End.RESTORED;
            } else if (l.startsWith("RESTORE-FAILED")) {
                end = End.RESTORE_FAILED;
                detail = Optional.of(l.substring("RESTORE-FAILED".length()).strip());
            } else if (l.startsWith("STOPPED ") && j.commands.contains(l.substring(8))) {
                end = End.STOPPED;
                detail = Optional.of(l.substring(8));
            } else if (l.startsWith("renamed ") && paths.contains(l.substring(8))) {
                renamed.add(l.substring(8));
            } else if (l.startsWith("restored ") && paths.contains(l.substring(9))) {
                restored.add(l.substring(9));
            } else if (l.startsWith("restore-failed ") && paths.contains(l.substring(15))) {
                notRestored.add(l.substring(15));
            } else if (l.startsWith("started ") && j.commands.contains(l.substring(8))) {
                started.add(l.substring(8));
                running = Optional.of(l.substring(8));
            } else if (l.startsWith("rerun ") && j.commands.contains(l.substring(6))) {
                running = Optional.of(l.substring(6));
            } else if (l.startsWith("failed ")) {
                failure = Optional.of(l.substring(7));
            } else if (l.startsWith("exit ") || l.startsWith("rerun-exit ")) {
                String rest = l.substring(l.indexOf(' ') + 1);
                int sp = rest.lastIndexOf(' ');
                if (sp > 0 && j.commands.contains(rest.substring(0, sp))) {
                    String c = rest.substring(0, sp);
                    running = Optional.empty();
                    boolean ok = rest.substring(sp + 1).equals("0");
                    if (l.startsWith("exit ") && !ok) {
                        failed.add(c);
                    } else if (l.startsWith("rerun-exit ")) {
                        (ok ? rerun : rerunFailed).add(c);
                    }
                }
            }
        }
        if (end == null) {
            end = alive ? End.RUNNING : End.DIED;
        }
        return new CommitStatus(end, renamed, started, failed, restored, notRestored, rerun, rerunFailed, failure,
                detail, running);
    }

    boolean finished() {
        return end == End.APPLIED || end == End.RESTORED || end == End.RESTORE_FAILED || end == End.STOPPED;
    }

    /** The command that was running when the status ends (started, no exit yet). */
    Optional<String> running() {
        return end == End.RUNNING || end == End.DIED || end == End.STOPPED ? lastRunning : Optional.empty();
    }
}
