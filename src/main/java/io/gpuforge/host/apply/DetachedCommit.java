package io.gpuforge.host.apply;

import io.gpuforge.host.HostShell;
import io.gpuforge.host.ProbeException;
import io.gpuforge.host.RemoteFiles;

import io.gpuforge.domain.passthrough.ApplyProgress;
import io.gpuforge.domain.passthrough.ApplyProgress.Kind;
import io.gpuforge.domain.passthrough.ApplyProgress.Step;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Java side of a detached commit ({@link CommitScript}): writes the script, starts it on the host, follows its
 * log (each refresh command's output streamed to the user's {@link ApplyProgress}) and reads its status file. The
 * commit itself needs no connection once started.
 */
public final class DetachedCommit {

    private static final Logger LOG = LoggerFactory.getLogger(DetachedCommit.class);
    private final RemoteFiles files;
    private final Duration commandLimit;

    DetachedCommit(RemoteFiles files, Duration commandLimit) {
        this.files = files;
        this.commandLimit = commandLimit;
    }

    /**
     * Writes the commit script of {@code j} and starts it detached; fails when it did not answer that it runs.
     *
     * @return false when the host has a refresh command not on its PATH, so the script cannot run it (nothing was
     *         started)
     */
    boolean launch(Journal j, List<String> commands) throws ProbeException {
        files.write(CommitScript.script(j.id), CommitScript.commit(j, commands, commandLimit)
                .getBytes(StandardCharsets.UTF_8));
        String out = files.run(CommitScript.launcher(j.id, commands)).strip();
        if (out.startsWith("missing ")) {
            LOG.info("{}: {} is not on the PATH of a shell; committing {} over the connection", files.describe(),
                    out.substring(8), j.id);
            return false;
        }
        if (!out.startsWith("started ")) {
            throw new ProbeException("The commit of " + j.id + " did not say it started on " + files.describe()
                    + (out.isEmpty() ? "" : ": " + out));
        }
        return true;
    }

    /** Where the commit stands now, from its status file and whether its process runs. */
    CommitStatus probe(Journal j) throws ProbeException {
        List<String> out = files.run(CommitScript.probe(j.id)).lines().toList();
        if (out.isEmpty() || out.get(0).equals("NONE")) {
            return CommitStatus.neverStarted();
        }
        return CommitStatus.parse(statusLines(out), out.get(0).equals("ALIVE"), j);
    }

    private static List<String> statusLines(List<String> out) {
        return out.stream().filter(l -> l.startsWith("S ")).map(l -> l.substring(2)).toList();
    }

    /**
     * Follows the commit until it ends (or its process is gone), reporting each step and each line of output.
     *
     * @throws ProbeException when it could not be followed to its end (the connection, or the host's answer)
     */
    void follow(Journal j, Following f) throws ProbeException {
        Duration limit = commandLimit.multipliedBy(2L * j.commands.size() + 1).plus(Duration.ofMinutes(5));
        HostShell.Result r = files.stream(CommitScript.follower(j.id), limit, (line, err) -> f.line(line, err));
        f.close();
        if (r.exitCode() != 0 || f.marker == null) {
            throw new ProbeException("Following the commit of " + j.id + " on " + files.describe() + " did not reach"
                    + " its end (exit " + r.exitCode() + ")" + RemoteFiles.tail(r));
        }
    }

    /** What a follow saw: the status at the end, and the last lines each command wrote (for messages). */
    static final class Following {
        private final ApplyProgress progress;
        private final Journal journal;
        private final List<String> status = new ArrayList<>();
        private final List<String> events = new ArrayList<>();
        private final Map<String, Deque<String>> tails = new HashMap<>();
        private String marker;
        private Step current;
        private String command;

        /** The lines an earlier follow of the same log already reported: seen again, not reported again. */
        private final int skip;
        private int count;

        Following(ApplyProgress progress, Journal journal) {
            this(progress, journal, 0);
        }

        private Following(ApplyProgress progress, Journal journal, int skip) {
            this.progress = progress;
            this.journal = journal;
            this.skip = skip;
        }

        /** A follow of the same log again, from its start, reporting only what this one had not. */
        Following again() {
            return new Following(progress, journal, count);
        }

        CommitStatus status() {
            return CommitStatus.parse(status, false, journal);
        }

        /** What the log showed so far (its event lines are the status file's), for a follow cut off. */
        CommitStatus seen() {
            return CommitStatus.parse(events, true, journal);
        }

        /** ": " and the last lines {@code command} wrote, as {@link RemoteFiles#tail} gives them. */
        String tail(String c) {
            Deque<String> t = tails.get(c);
            return t == null || t.isEmpty() ? "" : ": " + String.join(" / ", t);
        }

        void line(String line, boolean stderr) {
            if (marker != null) {
                if (line.startsWith("S ")) {
                    status.add(line.substring(2));
                }
                return;
            }
            if (line.equals("@@@ END") || line.equals("@@@ DIED")) {
                marker = line;
                return;
            }
            ApplyProgress to = ++count <= skip ? ApplyProgress.NONE : progress;
            if (!line.startsWith("@@ ")) {
                if (current != null) {
                    to.output(current, line, stderr);
                    Deque<String> t = tails.computeIfAbsent(command, k -> new ArrayDeque<>());
                    t.addLast(line.strip());
                    if (t.size() > 3) {
                        t.removeFirst();
                    }
                } else {
                    LOG.debug("commit {}: {}", journal.id, line);
                }
                return;
            }
            event(line.substring(3), to);
        }

        private void event(String e, ApplyProgress progress) {
            events.add(e);
            if (e.startsWith("started ") || e.startsWith("rerun ")) {
                close(progress);
                boolean rerun = e.startsWith("rerun ");
                command = e.substring(rerun ? 6 : 8);
                current = new Step(rerun ? Kind.RERUN : Kind.COMMAND, command);
                tails.remove(command);
                progress.started(current);
            } else if ((e.startsWith("exit ") || e.startsWith("rerun-exit ")) && current != null) {
                progress.finished(current, e.endsWith(" 0"));
                current = null;
            } else if (e.startsWith("timeout ") && current != null) {
                progress.finished(current, false);
                current = null;
            } else if (e.startsWith("restored ") || e.startsWith("restore-failed ")) {
                boolean ok = e.startsWith("restored ");
                Step s = new Step(Kind.RESTORE, e.substring(ok ? 9 : 15));
                progress.started(s);
                progress.finished(s, ok);
            }
        }

        /** A step still open when the output ends did not finish. */
        void close() {
            close(progress);
        }

        private void close(ApplyProgress progress) {
            if (current != null) {
                progress.finished(current, false);
                current = null;
            }
        }

        boolean died() {
            return "@@@ DIED".equals(marker);
        }
    }
}
