package io.gpuforge.app.diagnose;

import io.gpuforge.app.host.HostKeyPrompt;
import io.gpuforge.app.host.HostLogs;
import io.gpuforge.app.session.ConnectionSession;
import io.gpuforge.domain.connections.ConnectionInfo;
import io.gpuforge.diagnose.Diagnoser;
import io.gpuforge.domain.diagnose.Diagnosis;
import io.gpuforge.domain.diagnose.LogSource;
import io.gpuforge.domain.vm.VmRef;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Diagnoses a failed GPU VM start from the logs a user has: files (their last 8 MiB each), stdin (its first 8 MiB),
 * or text pasted in the window. What could not be read is listed in the diagnosis, never guessed around.
 */
public final class DiagnoseService {

    /** The most logs one diagnosis reads. */
    public static final int MAX_LOGS = 32;

    private final LogReader reader;
    private final VmEvidence.OwnStarts ownStarts;

    /** Without a task log: a libvirt VM's failed start is only what its logs say. */
    public DiagnoseService() {
        this(LogReader.MAX_BYTES, VmEvidence.OwnStarts.NONE);
    }

    /** With GPUForge's task log, where its own starts of a libvirt VM left libvirt's error. */
    public DiagnoseService(io.gpuforge.app.tasks.TaskLog taskLog) {
        this(LogReader.MAX_BYTES, VmEvidence.OwnStarts.of(taskLog));
    }

    /** With another byte limit per log (tests). */
    DiagnoseService(int maxBytes) {
        this(maxBytes, VmEvidence.OwnStarts.NONE);
    }

    /** With another byte limit per log and wait for a pipe (tests). */
    DiagnoseService(int maxBytes, java.time.Duration streamWait) {
        this(new LogReader(maxBytes, streamWait), VmEvidence.OwnStarts.NONE);
    }

    private DiagnoseService(int maxBytes, VmEvidence.OwnStarts ownStarts) {
        this(new LogReader(maxBytes), ownStarts);
    }

    private DiagnoseService(LogReader reader, VmEvidence.OwnStarts ownStarts) {
        this.reader = reader;
        this.ownStarts = ownStarts;
    }

    /** The limit on each log, in bytes. */
    public static int maxBytes() {
        return LogReader.MAX_BYTES;
    }

    /**
     * Diagnoses files; {@code -} stands for {@code stdin}, read once however often it is named.
     *
     * @throws IllegalArgumentException with more than {@link #MAX_LOGS} logs
     */
    public Diagnosis files(List<String> names, Supplier<InputStream> stdin) {
        if (names.size() > MAX_LOGS) {
            throw new IllegalArgumentException("at most " + MAX_LOGS + " logs at once, not " + names.size());
        }
        return diagnose(reads(names, stdin));
    }

    private List<LogReader.Read> reads(List<String> names, Supplier<InputStream> stdin) {
        List<LogReader.Read> reads = new ArrayList<>();
        boolean stdinRead = false;
        for (String name : names) {
            if (name.equals("-")) {
                if (!stdinRead) {
                    reads.add(reader.stream("stdin", stdin.get()));
                    stdinRead = true;
                }
            } else {
                reads.add(reader.file(Path.of(name)));
            }
        }
        return reads;
    }

    /**
     * A log file's text as the diagnosis would read it (its last 8 MiB, colour codes dropped), for the window to
     * show before it is diagnosed.
     *
     * @throws UnreadableLog with the one-line reason when it is not a readable text log
     */
    public String text(Path file) throws IOException {
        LogReader.Read r = reader.file(file);
        if (r.input().isEmpty()) {
            throw new UnreadableLog(r.collected().problem().orElseThrow());
        }
        return r.input().get().text();
    }

    /**
     * Diagnoses a VM from what its hypervisor kept of its last failed start (its task log, its configuration), with
     * the user's own logs besides ({@code -} for stdin, as {@link #files}).
     */
    /**
     * Whether a VM's diagnosis found no failed start to diagnose: its backend has none on record (not: could not be
     * read). Then "Cause: unknown" would be the wrong answer.
     */
    public static boolean noFailedStart(Diagnosis d) {
        return d.collected().stream().anyMatch(c -> c.source() == LogSource.TASK_LOG && !c.read()
                && c.problem().map(p -> p.key().equals(VmEvidence.NO_FAILED_START)).orElse(false));
    }

    public Diagnosis vm(ConnectionSession session, ConnectionInfo connection, VmRef vm, HostLogs hosts,
                        HostKeyPrompt prompt, List<String> logs, Supplier<InputStream> stdin) {
        if (logs.size() > MAX_LOGS) {
            throw new IllegalArgumentException("at most " + MAX_LOGS + " logs at once, not " + logs.size());
        }
        Evidence e = new Evidence(reader);
        VmEvidence.of(session, vm, new VmEvidence.Hosts(connection, hosts, prompt, ownStarts), e);
        reads(logs, stdin).forEach(e::given);
        return Diagnoser.diagnose(e.inputs(), e.collected());
    }

    /** Diagnoses text pasted in the window. */
    public Diagnosis pasted(String text) {
        return diagnose(List.of(reader.pasted("pasted", text)));
    }

    private Diagnosis diagnose(List<LogReader.Read> reads) {
        Evidence e = new Evidence(reader);
        reads.forEach(e::given);
        return Diagnoser.diagnose(e.inputs(), e.collected());
    }
}
