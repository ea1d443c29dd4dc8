package io.gpuforge.host.ssh;

import io.gpuforge.host.CommandTimeoutException;
import io.gpuforge.host.ConnectionLostException;
import io.gpuforge.host.HostShell;
import io.gpuforge.host.LineRelay;
import io.gpuforge.host.LocalShell;
import io.gpuforge.host.OutputCapture;
import io.gpuforge.host.ProbeException;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.session.ClientSession;

/**
 * A host over SSH (Apache MINA sshd): one session, one exec channel per command. How the login is made (the user's
 * SSH config, agent, key files, passphrases, passwords, known_hosts files) is {@link SshConnector}'s.
 */
public final class SshShell implements HostShell {

    /** What sshd says when the server accepted none of the keys and passwords offered. */
    static final String REFUSED = "authentication refused (wrong password or key)";

    /**
     * How to log in, on top of the agent and the config: a password, a key file with its passphrase (tried first on
     * every encrypted key), and who to ask for what is missing. Empty password and key mean "the agent and the
     * default keys".
     */
    public record Credentials(Optional<char[]> password, Optional<Path> identity, Optional<char[]> keyPassphrase,
                              SshPrompts prompts) {

        public Credentials {
            Objects.requireNonNull(password);
            Objects.requireNonNull(identity);
            Objects.requireNonNull(keyPassphrase);
            Objects.requireNonNull(prompts);
        }

        /** Nobody to ask. */
        public Credentials(Optional<char[]> password, Optional<Path> identity, Optional<char[]> keyPassphrase) {
            this(password, identity, keyPassphrase, SshPrompts.none());
        }

        public static Credentials none() {
            return new Credentials(Optional.empty(), Optional.empty(), Optional.empty());
        }

        /** Says what is given, never a secret (nor the arrays' identities). */
        @Override
        public String toString() {
            return "Credentials[password=" + (password.isPresent() ? "(given)" : "(none)") + ", identity="
                    + identity.map(Path::toString).orElse("(default keys)") + ", keyPassphrase="
                    + (keyPassphrase.isPresent() ? "(given)" : "(none)") + "]";
        }
    }

    private static final long TICK = TimeUnit.MILLISECONDS.toNanos(100);
    /** How often a {@link #stream} without output looks whether it ended or was stopped. */
    private static final long STREAM_TICK = TimeUnit.MILLISECONDS.toNanos(250);
    private final SshTarget target;
    private final SshClient client;
    private final ClientSession session;

    SshShell(SshTarget target, SshClient client, ClientSession session) {
        this.target = target;
        this.client = client;
        this.session = session;
    }

    /**
     * Logs in to {@code destination} ({@code [user@]host[:port]} or a {@code Host} alias) as {@code ssh} would with
     * {@code setup}: its config, agent and default keys, host keys checked against its known_hosts files (unknown ones
     * to {@code policy}, changed ones refused).
     */
    public static SshShell connect(SshDestination destination, Credentials credentials, SshSetup setup,
                                   HostKeyPolicy policy, Duration timeout) throws ProbeException {
        return SshConnector.connect(destination, credentials, setup, policy, timeout);
    }

    /**
     * Logs in to exactly {@code target} (no SSH config, no agent): with the credentials given, else the default keys
     * in {@code ~/.ssh}; host keys checked against, and new ones written to, {@code knownHosts}.
     */
    public static SshShell connect(SshTarget target, Credentials credentials, Path knownHosts, HostKeyPolicy policy,
                                   Duration timeout) throws ProbeException {
        SshSetup setup = new SshSetup(Optional.empty(), SshSetup.DEFAULT_KEY_NAMES.stream()
                .map(Path.of(System.getProperty("user.home"), ".ssh")::resolve).toList(), Optional.empty(),
                List.of(knownHosts), knownHosts);
        return connect(SshDestination.of(target), credentials, setup, policy, timeout);
    }

    /** The innermost cause's message, in words a user reads. */
    static String describe(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        if (m.contains("No more authentication methods")) {
            return REFUSED;
        }
        return m;
    }

    @Override
    public String describe() {
        return "ssh:" + target;
    }

    public String user() {
        return target.user();
    }

    @Override
    public Result run(String command, byte[] stdin, Duration timeout) throws ProbeException {
        return execute(command, stdin, timeout, null);
    }

    @Override
    public Result run(String command, byte[] stdin, Duration timeout, LineListener lines) throws ProbeException {
        return execute(command, stdin, timeout, lines);
    }

    /** One exec channel; output capped like locally; with a listener, its lines handed on while it runs. */
    private Result execute(String command, byte[] stdin, Duration timeout, LineListener lines) throws ProbeException {
        LineRelay relay = lines == null ? null : new LineRelay();
        OutputCapture out = new OutputCapture(LocalShell.STDOUT_CAP, relay, false);
        OutputCapture err = new OutputCapture(LocalShell.STDERR_CAP, relay, true);
        long deadline = System.nanoTime() + timeout.toNanos();
        try (ChannelExec ch = session.createExecChannel(command)) {
            ch.setIn(new ByteArrayInputStream(stdin == null ? new byte[0] : stdin));
            ch.setOut(out);
            ch.setErr(err);
            open(ch, command, timeout);
            Set<ClientChannelEvent> ended = EnumSet.of(ClientChannelEvent.CLOSED, ClientChannelEvent.EXIT_STATUS);
            while (true) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new CommandTimeoutException("'" + command + "' on " + target + " did not finish within "
                            + CommandTimeoutException.human(timeout) + "; it may still be running there", true);
                }
                long wait = relay == null ? left : Math.min(left, TICK);
                Set<ClientChannelEvent> events = ch.waitFor(ended, Math.max(1, TimeUnit.NANOSECONDS.toMillis(wait)));
                if (relay != null) {
                    relay.deliver(lines, 0);
                }
                if (events.contains(ClientChannelEvent.CLOSED) || events.contains(ClientChannelEvent.EXIT_STATUS)) {
                    break;
                }
            }
            ch.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), 2000);
            out.finish();
            err.finish();
            if (relay != null) {
                relay.deliver(lines, 0);
            }
            Integer exit = ch.getExitStatus();
            if (exit == null && ch.getExitSignal() == null && !isOpen()) {
                throw new ConnectionLostException(target.toString(), shown(command), null);
            }
            return new Result(exit == null ? -1 : exit, out.bytes(), err.text());
        } catch (IOException | RuntimeException e) {
            throw failed(command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProbeException("Interrupted while running '" + command + "' on " + target, e);
        }
    }

    /**
     * Opens a command's channel within {@code timeout}: a host that does not answer (a stalled network, a hung sshd)
     * is a {@link CommandTimeoutException} saying the command did not start, not sshd's "Timed out after N msec".
     */
    private void open(ChannelExec ch, String command, Duration timeout) throws IOException, ProbeException {
        org.apache.sshd.client.future.OpenFuture opened = ch.open();
        if (!opened.await(timeout)) {
            throw new CommandTimeoutException("'" + shown(command) + "' on " + target + " did not start within "
                    + CommandTimeoutException.human(timeout) + ": the host does not answer (the network or its sshd"
                    + " stalled)", false);
        }
        opened.verify();
    }

    /**
     * What sshd threw while a command was started or ran, as a checked error naming the host and the command: a
     * dropped connection (sshd then throws unchecked ones too, "Channel id=N not registered because session is being
     * closed") is a {@link ConnectionLostException}.
     */
    private ProbeException failed(String command, Exception e) {
        if (!isOpen()) {
            return new ConnectionLostException(target.toString(), shown(command), e);
        }
        return new ProbeException("Running '" + shown(command) + "' on " + target + " failed: " + describe(e), e);
    }

    /** A command as an error message shows it: its first line, at most 200 characters. */
    private static String shown(String command) {
        String first = command.strip().lines().findFirst().orElse("");
        String s = first.length() > 200 ? first.substring(0, 200) + "…" : first;
        return first.length() < command.strip().length() && !s.endsWith("…") ? s + " …" : s;
    }

    /** Whether the SSH session is still up (a dropped connection closes it). */
    public boolean isOpen() {
        return session.isOpen() && !session.isClosing();
    }

    /**
     * Stops a {@link #stream} from another thread: the command's channel is closed at once, which ends the command on
     * the host (its output has nowhere to go). Stopping before the stream started makes it not start.
     */
    public static final class Stop {
        private ChannelExec channel;
        private boolean stopped;

        public void stop() {
            ChannelExec ch;
            synchronized (this) {
                stopped = true;
                ch = channel;
            }
            if (ch != null) {
                ch.close(true);
            }
        }

        public synchronized boolean stopped() {
            return stopped;
        }

        private synchronized boolean attach(ChannelExec ch) {
            channel = ch;
            return !stopped;
        }
    }

    /**
     * Runs a command that may never end by itself ({@code nvidia-smi … -lms N}): every line it writes (without its
     * line end) goes to {@code lines} on the calling thread as it arrives, stderr lines flagged; nothing of stdout is
     * kept, so it can run for months. Returns when the command ends (its exit code, -1 when the host gave none, with
     * the signal that ended it in the stderr text), or when {@code stop} is used (-1). The returned stdout holds only
     * a last line the command did not end (cut off by its death); it is never handed to {@code lines}.
     *
     * @throws ProbeException when the channel cannot be opened within {@code openTimeout}, or the connection drops
     *                        while the command runs (then {@link #isOpen()} is false: connect again)
     */
    public Result stream(String command, Duration openTimeout, LineListener lines, Stop stop) throws ProbeException {
        LineRelay relay = new LineRelay();
        StreamedLines out = new StreamedLines(relay);
        OutputCapture err = new OutputCapture(LocalShell.STDERR_CAP, relay, true);
        try (ChannelExec ch = session.createExecChannel(command)) {
            ch.setIn(new ByteArrayInputStream(new byte[0]));
            ch.setOut(out);
            ch.setErr(err);
            if (!stop.attach(ch)) {
                return new Result(-1, new byte[0], "");
            }
            open(ch, command, openTimeout);
            while (!stop.stopped() && !ch.isClosing() && ch.getExitStatus() == null && ch.getExitSignal() == null) {
                relay.deliver(lines, STREAM_TICK);
            }
            if (!stop.stopped()) {
                ch.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), 2000);
            }
            err.finish();
            relay.deliver(lines, 0);
            if (stop.stopped()) {
                return new Result(-1, out.partial(), err.text());
            }
            Integer exit = ch.getExitStatus();
            String signal = ch.getExitSignal();
            if (exit == null && signal == null && !isOpen()) {
                throw new ConnectionLostException(target.toString(), shown(command), null);
            }
            return new Result(exit == null ? -1 : exit, out.partial(), err.text()
                    + (signal == null ? "" : (err.text().isEmpty() ? "" : "\n") + "ended by signal " + signal));
        } catch (IOException | RuntimeException e) {
            if (stop.stopped()) {
                return new Result(-1, out.partial(), err.text());
            }
            throw failed(command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProbeException("Interrupted while running '" + command + "' on " + target, e);
        }
    }

    /** A stream's stdout cut into lines for the relay; keeps only what came after the last line end. */
    private static final class StreamedLines extends OutputStream {
        private final LineRelay relay;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        StreamedLines(LineRelay relay) {
            this.relay = relay;
        }

        @Override
        public synchronized void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n' || line.size() >= LineRelay.MAX_LINE) {
                    String s = line.toString(StandardCharsets.UTF_8);
                    line.reset();
                    relay.offer(s.endsWith("\r") ? s.substring(0, s.length() - 1) : s, false);
                    if (b[i] == '\n') {
                        continue;
                    }
                }
                line.write(b[i]);
            }
        }

        synchronized byte[] partial() {
            return line.toByteArray();
        }
    }

    static void closeQuietly(ClientSession s, SshClient c) {
        try {
            if (s != null) {
                s.close();
            }
        } catch (IOException e) {
            // closing after a failure
        }
        c.stop();
    }

    @Override
    public void close() {
        closeQuietly(session, client);
    }
}
