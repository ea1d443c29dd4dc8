package io.gpuforge.telemetry;

import io.gpuforge.host.HostShell;
import io.gpuforge.host.ProbeException;
import io.gpuforge.host.ssh.SshShell;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;

/**
 * One host over SSH as its GPU sources see it: one session, shared by the {@code nvidia-smi} stream (as
 * {@link LineStreams}) and the polled sources (as a {@link HostShell}: amdgpu hwmon), and opened again when it is
 * gone: dropped by the network or the host, or so silent that a command cannot even get a channel. A stream's
 * command runs on the shared telemetry pool (one blocked thread per running command, idle between lines).
 */
public final class SshHost implements HostShell, LineStreams {

    /** Opens a new session to the host (the product's one SSH path: known hosts, credentials). */
    @FunctionalInterface
    public interface Connector {
        SshShell connect() throws ProbeException;
    }

    /** How long a stream's channel may take to open before the session counts as dead. */
    static final Duration OPEN_TIMEOUT = Duration.ofSeconds(15);
    private final String name;
    private final Connector connector;
    private final ExecutorService pool;
    private SshShell shell;
    private boolean closed;
    private int connects;

    /**
     * @param name the host as messages and GPU ids name it ({@code ssh:root@pve1})
     */
    public SshHost(String name, Connector connector, ExecutorService pool) {
        this.name = name;
        this.connector = connector;
        this.pool = pool;
    }

    @Override
    public String describe() {
        return name;
    }

    /** The session, connecting (again) when there is none or the last one is gone. */
    public synchronized SshShell session() throws ProbeException {
        if (closed) {
            throw new ProbeException("The telemetry of " + name + " was stopped");
        }
        if (shell != null && !shell.isOpen()) {
            shell.close();
            shell = null;
        }
        if (shell == null) {
            shell = connector.connect();
            connects++;
        }
        return shell;
    }

    /** How many sessions were opened so far (a dropped connection opens another). */
    public synchronized int connects() {
        return connects;
    }

    /** Forgets a session that failed, so that the next command connects again. */
    private synchronized void drop(SshShell failed) {
        if (shell == failed) {
            shell = null;
            failed.close();
        }
    }

    @Override
    public Result run(String command, byte[] stdin, Duration timeout) throws ProbeException {
        SshShell s = session();
        try {
            return s.run(command, stdin, timeout);
        } catch (ProbeException e) {
            drop(s);
            throw e;
        }
    }

    @Override
    public Result run(String command, byte[] stdin, Duration timeout, LineListener lines) throws ProbeException {
        SshShell s = session();
        try {
            return s.run(command, stdin, timeout, lines);
        } catch (ProbeException e) {
            drop(s);
            throw e;
        }
    }

    @Override
    public Running start(String command, Sink sink) throws IOException {
        SshShell s;
        try {
            s = session();
        } catch (ProbeException e) {
            throw new IOException(e.getMessage(), e);
        }
        SshShell.Stop stop = new SshShell.Stop();
        pool.execute(() -> {
            Result r;
            try {
                r = s.stream(command, OPEN_TIMEOUT, (line, stderr) -> {
                    if (!stderr) {
                        sink.line(line);
                    }
                }, stop);
            } catch (ProbeException e) {
                drop(s);
                if (!stop.stopped()) {
                    sink.lost(e.getMessage());
                }
                return;
            }
            if (!stop.stopped()) {
                sink.ended(r.exitCode(), new String(r.stdout(), StandardCharsets.UTF_8), r.stderr());
            }
        });
        return stop::stop;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (shell != null) {
            shell.close();
            shell = null;
        }
    }
}
